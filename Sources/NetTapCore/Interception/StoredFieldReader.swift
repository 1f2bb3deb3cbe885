@_spi(Reflection) import Swift

/// Reads a class instance's stored property by name through the runtime's field table, for the few internal
/// properties of FoundationNetworking that NetTap must see (``CallerInspector``).
///
/// `Mirror` decodes each field's mangled type name on every child it produces (about 30 µs for the three fields
/// of a task); this reader asks the runtime for a class's fields once (`_forEachField`: name, offset, type),
/// remembers them per class, and afterwards copies the value at the remembered offset into an `Any` of the
/// remembered type: the same value `Mirror`'s child holds, for a few nanoseconds.
///
/// Thread safety: every member may be used from any thread. Reading a property that another thread writes at
/// the same time is as unsafe as it is through `Mirror`; callers read fields that are set before the request
/// reaches NetTap.
enum StoredFieldReader {
    /// One stored property of a class: where it lives in an instance, and its type.
    private struct Field: @unchecked Sendable {
        /// Bytes from the start of the instance.
        let offset: Int
        let type: Any.Type
    }

    /// The stored properties of each class seen, including those of its superclasses (the nearest wins).
    private static let fieldsByClass = Locked<[ObjectIdentifier: [String: Field]]>([:])

    /// The value of the stored property `name` of `object`, searching its class and superclasses.
    /// - Parameters:
    ///   - name: The property's name as declared.
    ///   - object: The instance.
    /// - Returns: The value (an `Optional` property's value is an `Optional` in the `Any`), or `nil` when the
    ///   class has no stored property of that name.
    static func value(_ name: String, of object: AnyObject) -> Any? {
        guard let field = fields(of: type(of: object))[name] else { return nil }
        return withExtendedLifetime(object) {
            let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            return copy(field.type, at: base + field.offset)
        }
    }

    /// `_EachFieldOptions.classType` (a `static var` in the standard library, so not concurrency-safe to read).
    private static let classType = _EachFieldOptions(rawValue: 1 << 0)

    private static func fields(of type: AnyClass) -> [String: Field] {
        let key = ObjectIdentifier(type)
        if let known = fieldsByClass.withLock({ $0[key] }) { return known }
        var found: [String: Field] = [:]
        var level: AnyClass? = type
        while let current = level {
            _ = _forEachField(of: current, options: classType) { name, offset, fieldType, _ in
                let label = String(cString: name)
                if found[label] == nil { found[label] = Field(offset: offset, type: fieldType) }
                return true
            }
            level = _getSuperclass(current)
        }
        fieldsByClass.withLock { $0[key] = found }
        return found
    }

    /// Copies the value of type `type` stored at `pointer` into an `Any`.
    private static func copy(_ type: Any.Type, at pointer: UnsafeRawPointer) -> Any {
        func load<T>(_: T.Type) -> Any { pointer.assumingMemoryBound(to: T.self).pointee }
        return _openExistential(type, do: load)
    }
}
