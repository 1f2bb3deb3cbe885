/// RFC 9110 §5.6.2 tokens (`tchar`: letters, digits and ``!#$%&'*+-.^_`|~``), as method and field names must be.
package enum HTTPToken {
    /// Whether `byte` is a `tchar`.
    package static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Whether `scalar` is a `tchar`.
    package static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && isTokenCharacter(UInt8(scalar.value))
    }

    /// Whether `bytes` is a non-empty token.
    package static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { isTokenCharacter($0) }
    }
}
