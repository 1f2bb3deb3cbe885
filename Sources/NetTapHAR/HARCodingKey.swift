import Foundation

/// A coding key made from any string, so every HAR object can read its known fields and its custom
/// `_`-prefixed ones through one container.
struct HARCodingKey: CodingKey, Hashable, ExpressibleByStringLiteral {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) {
        self.stringValue = string
    }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }

    init(stringLiteral value: String) {
        self.stringValue = value
    }
}

typealias HARDecodingContainer = KeyedDecodingContainer<HARCodingKey>
typealias HAREncodingContainer = KeyedEncodingContainer<HARCodingKey>
