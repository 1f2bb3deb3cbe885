extension ConfigNode {
    /// This value as a string.
    ///
    /// - Returns: The string.
    /// - Throws: ``ConfigurationError`` `expected a string, found …` at this node's path.
    package func stringValue() throws -> String {
        try recovering("") {
            guard case .string(let string) = value else { throw typeMismatch(expected: "a string") }
            return string
        }
    }

    /// This value as a whole number; a number with a zero fraction (`2.0`) is accepted.
    ///
    /// - Returns: The integer.
    /// - Throws: ``ConfigurationError`` `expected an integer, found …` at this node's path.
    package func intValue() throws -> Int {
        try recovering(0) { try exactInteger() }
    }

    /// The value as an `Int`, or the error ``intValue()`` reports.
    private func exactInteger() throws -> Int {
        switch value {
        case .integer(let integer):
            if let result = Int(exactly: integer) { return result }
        case .number(let number):
            if let result = Int(exactly: number) { return result }
            throw error("expected an integer, found \(number)")
        default:
            break
        }
        throw typeMismatch(expected: "an integer")
    }

    /// This value as a number.
    ///
    /// - Returns: The number.
    /// - Throws: ``ConfigurationError`` `expected a number, found …` at this node's path.
    package func doubleValue() throws -> Double {
        try recovering(0) {
            switch value {
            case .integer(let integer): return Double(integer)
            case .number(let number): return number
            default: throw typeMismatch(expected: "a number")
            }
        }
    }

    /// This value as a boolean (`true` or `false`; strings and numbers are not accepted).
    ///
    /// - Returns: The boolean.
    /// - Throws: ``ConfigurationError`` `expected a boolean, found …` at this node's path.
    package func boolValue() throws -> Bool {
        try recovering(false) {
            guard case .bool(let bool) = value else { throw typeMismatch(expected: "a boolean") }
            return bool
        }
    }

    /// An optional string member.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The string, or `nil` when the member is absent or `null`.
    /// - Throws: ``ConfigurationError`` when this value is not an object or the member is not a string,
    ///   naming the member's path.
    package func string(_ key: String) throws -> String? {
        try present(key)?.stringValue()
    }

    /// A required string member.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The string.
    /// - Throws: ``ConfigurationError`` when the member is absent, `null` or not a string.
    package func requiredString(_ key: String) throws -> String {
        try requiredChild(key).stringValue()
    }

    /// An optional whole-number member.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The integer, or `nil` when the member is absent or `null`.
    /// - Throws: ``ConfigurationError`` when this value is not an object or the member is not an integer.
    package func int(_ key: String) throws -> Int? {
        try present(key)?.intValue()
    }

    /// A required whole-number member.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The integer.
    /// - Throws: ``ConfigurationError`` when the member is absent, `null` or not an integer.
    package func requiredInt(_ key: String) throws -> Int {
        try requiredChild(key).intValue()
    }

    /// An optional number member.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The number, or `nil` when the member is absent or `null`.
    /// - Throws: ``ConfigurationError`` when this value is not an object or the member is not a number.
    package func double(_ key: String) throws -> Double? {
        try present(key)?.doubleValue()
    }

    /// A required number member.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The number.
    /// - Throws: ``ConfigurationError`` when the member is absent, `null` or not a number.
    package func requiredDouble(_ key: String) throws -> Double {
        try requiredChild(key).doubleValue()
    }

    /// An optional boolean member.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The boolean, or `nil` when the member is absent or `null`.
    /// - Throws: ``ConfigurationError`` when this value is not an object or the member is not a boolean.
    package func bool(_ key: String) throws -> Bool? {
        try present(key)?.boolValue()
    }

    /// A required boolean member.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The boolean.
    /// - Throws: ``ConfigurationError`` when the member is absent, `null` or not a boolean.
    package func requiredBool(_ key: String) throws -> Bool {
        try requiredChild(key).boolValue()
    }

    /// The elements of an optional array member.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The elements as nodes (paths such as `$.stubs[2]`); empty when the member is absent or
    ///   `null`.
    /// - Throws: ``ConfigurationError`` when this value is not an object or the member is not an array.
    package func array(_ key: String) throws -> [ConfigNode] {
        try present(key)?.elements() ?? []
    }

    /// The elements of a required array member.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The elements as nodes.
    /// - Throws: ``ConfigurationError`` when the member is absent, `null` or not an array.
    package func requiredArray(_ key: String) throws -> [ConfigNode] {
        try requiredChild(key).elements()
    }

    /// The member, or `nil` when it is absent or `null` (JSON `null` counts as leaving the key out).
    func present(_ key: String) throws -> ConfigNode? {
        guard let node = try child(key), node.value != .null else { return nil }
        return node
    }
}
