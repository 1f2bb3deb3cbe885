import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private class Base {
    let name: String
    var count: Int?
    init(name: String, count: Int?) {
        self.name = name
        self.count = count
    }
}

private final class Derived: Base {
    let queue = DispatchQueue(label: "StoredFieldReaderTests")
    var values: [Int: String] = [7: "seven"]
}

@Suite("Stored field reader (the runtime's field table instead of Mirror)")
struct StoredFieldReaderTests {
    @Test("reads fields of the class and of its superclass, optional fields as optionals")
    func readsFields() throws {
        let object = Derived(name: "first", count: 3)
        #expect(StoredFieldReader.value("name", of: object) as? String == "first")
        let count = try #require(StoredFieldReader.value("count", of: object))
        #expect(CallerInspector.unwrap(count) as? Int == 3)
        #expect(StoredFieldReader.value("queue", of: object) as? DispatchQueue === object.queue)
        #expect(StoredFieldReader.value("values", of: object) as? [Int: String] == [7: "seven"])
    }

    @Test("a nil optional is an Optional holding nil; an unknown name is nil")
    func nilAndUnknown() throws {
        let object = Derived(name: "second", count: nil)
        let count = try #require(StoredFieldReader.value("count", of: object))
        #expect(CallerInspector.unwrap(count) == nil)
        #expect(StoredFieldReader.value("missing", of: object) == nil)
    }

    @Test("values read later reflect the instance's current state, per instance")
    func currentValues() {
        let first = Derived(name: "a", count: 1)
        let second = Derived(name: "b", count: 2)
        first.values[8] = "eight"
        #expect((StoredFieldReader.value("values", of: first) as? [Int: String])?.count == 2)
        #expect((StoredFieldReader.value("values", of: second) as? [Int: String])?.count == 1)
        #expect(StoredFieldReader.value("name", of: second) as? String == "b")
    }

    #if canImport(FoundationNetworking)
    @Test("finds the URLSessionTask fields NetTap reads, with the values Mirror gives")
    func agreesWithMirror() throws {
        let session = URLSession(configuration: .default)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: try #require(URL(string: "http://127.0.0.1:9/")))
        var mirror: Mirror? = Mirror(reflecting: task)
        var mirrored: Any?
        while let current = mirror, mirrored == nil {
            mirrored = current.children.first { $0.label == "workQueue" }?.value
            mirror = current.superclassMirror
        }
        let queue = try #require(StoredFieldReader.value("workQueue", of: task) as? DispatchQueue)
        #expect(queue === (mirrored as? DispatchQueue))
        let owner = try #require(StoredFieldReader.value("session", of: task).flatMap(CallerInspector.unwrap))
        #expect(owner as? URLSession === session)
    }
    #endif
}
