// Stand-ins for the names an app already imports from Alamofire, swift-http-types, SwiftUI and swift-clocks
// (which cannot be fetched here): the same public names, so a test can prove an app that imports them beside NetTap
// compiles with every one of them unqualified.

/// Alamofire's `Interceptor` (a request adapter and retrier).
public struct Interceptor: Sendable {
    /// The adapters' count, to have something to use.
    public var adapterCount: Int
    /// Creates one.
    public init(adapterCount: Int = 0) { self.adapterCount = adapterCount }
}

/// Alamofire's `HTTPHeaders`.
public struct HTTPHeaders: Sendable, ExpressibleByDictionaryLiteral {
    /// The fields.
    public var dictionary: [String: String]
    /// Creates headers from a literal.
    public init(dictionaryLiteral elements: (String, String)...) {
        dictionary = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }
}

/// Alamofire's `Request` and `Session`.
public final class Request: Sendable {
    /// Creates one.
    public init() {}
}

/// Alamofire's `Session`.
public final class Session: Sendable {
    /// The default session.
    public static let `default` = Session()
    /// Creates one.
    public init() {}
}

/// swift-http-types' `HTTPResponse` and `HTTPFields`.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headerFields: HTTPFields
    /// Creates one.
    public init(status: Int, headerFields: HTTPFields = HTTPFields()) {
        self.status = status
        self.headerFields = headerFields
    }
}

/// swift-http-types' `HTTPFields`.
public struct HTTPFields: Sendable {
    /// Creates empty fields.
    public init() {}
}

/// SwiftUI's `Transaction`.
public struct Transaction: Sendable {
    /// Whether animations are disabled.
    public var disablesAnimations: Bool
    /// Creates one.
    public init(disablesAnimations: Bool = false) { self.disablesAnimations = disablesAnimations }
}

/// swift-clocks' `TestClock`.
public final class TestClock: Sendable {
    /// Creates one.
    public init() {}
}
