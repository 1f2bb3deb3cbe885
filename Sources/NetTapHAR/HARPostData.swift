import Foundation
import NetTapCore

/// The body of a request: HAR 1.2 `postData`.
///
/// HAR 1.2 gives `postData` no `encoding` field, so a body that is not UTF-8 text cannot be stored
/// faithfully by the spec alone. NetTap then writes the base64 form into ``text``, says so in ``comment``
/// and sets the custom field `_encoding` to `"base64"` (the same word HAR 1.2 uses for `content.encoding`),
/// which ``HAREntry/transaction()`` reads back. Other tools see a base64 string and the comment.
public struct HARPostData: Codable, Sendable, Hashable {
    /// The body's MIME type, for example `application/json`.
    public var mimeType: String
    /// Form parameters (URL-encoded or multipart); HAR 1.2 calls them mutually exclusive with ``text``.
    public var params: [HARPostParameter]
    /// The body as text, or its base64 form when ``encoding`` is `"base64"`.
    public var text: String?
    /// `"base64"` when ``text`` holds base64 (written as the custom field `_encoding`), else `nil`.
    public var encoding: String?
    /// A comment from the user or the application.
    public var comment: String?
    /// Custom fields (names starting with `_`) kept from the imported file.
    public var customFields: [String: HARValue]

    /// Creates a request body record.
    ///
    /// - Parameters:
    ///   - mimeType: The MIME type.
    ///   - params: Form parameters.
    ///   - text: The body text or its base64 form.
    ///   - encoding: `"base64"` when `text` is base64.
    ///   - comment: An optional comment.
    ///   - customFields: Custom `_` fields.
    public init(
        mimeType: String,
        params: [HARPostParameter] = [],
        text: String? = nil,
        encoding: String? = nil,
        comment: String? = nil,
        customFields: [String: HARValue] = [:]
    ) {
        self.mimeType = mimeType
        self.params = params
        self.text = text
        self.encoding = encoding
        self.comment = comment
        self.customFields = customFields
    }

    /// Decodes leniently: every field may be missing.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.typeMismatch` when a value has an unusable type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        mimeType = try container.lenientString("mimeType") ?? ""
        params = try container.list(HARPostParameter.self, "params")
        text = try container.lenientString("text")
        encoding = try container.lenientString("_encoding") ?? container.lenientString("encoding")
        comment = try container.lenientString("comment")
        customFields = container.customFields(excluding: ["_encoding"])
    }

    /// Encodes the HAR 1.2 fields, `_encoding` and the custom fields.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encode(mimeType, forKey: "mimeType")
        try container.encode(params, forKey: "params")
        try container.encode(text ?? "", forKey: "text")
        try container.encodeIfPresent(encoding, forKey: "_encoding")
        try container.encodeIfPresent(comment, forKey: "comment")
        try container.encodeCustomFields(customFields)
    }

    /// The body bytes: ``text`` decoded from base64 when ``encoding`` is `"base64"`, else its UTF-8 bytes,
    /// else the ``params`` joined as `application/x-www-form-urlencoded`.
    ///
    /// - Returns: The bytes, or `nil` when `text` claims base64 but is not valid base64.
    public func decodedData() -> Data? {
        if let text, !text.isEmpty || params.isEmpty {
            return HARBodyCoding.decode(text: text, encoding: encoding)
        }
        return Data(FormURLEncoding.encoded(params.map { ($0.name, $0.value ?? "") }).utf8)
    }
}

/// One posted form parameter: HAR 1.2 `params[]`.
public struct HARPostParameter: Codable, Sendable, Hashable {
    /// The parameter's name.
    public var name: String
    /// The parameter's value, or the content of a posted file.
    public var value: String?
    /// The name of a posted file.
    public var fileName: String?
    /// The content type of a posted file.
    public var contentType: String?
    /// A comment from the user or the application.
    public var comment: String?

    /// Creates a form parameter.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    ///   - fileName: A posted file's name.
    ///   - contentType: A posted file's content type.
    ///   - comment: An optional comment.
    public init(
        name: String,
        value: String? = nil,
        fileName: String? = nil,
        contentType: String? = nil,
        comment: String? = nil
    ) {
        self.name = name
        self.value = value
        self.fileName = fileName
        self.contentType = contentType
        self.comment = comment
    }

    /// Decodes leniently.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.keyNotFound` when `name` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        name = try container.required("name", container.lenientString)
        value = try container.lenientText("value")
        fileName = try container.lenientString("fileName")
        contentType = try container.lenientString("contentType")
        comment = try container.lenientString("comment")
    }

    /// Encodes the HAR 1.2 fields.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encode(name, forKey: "name")
        try container.encodeIfPresent(value, forKey: "value")
        try container.encodeIfPresent(fileName, forKey: "fileName")
        try container.encodeIfPresent(contentType, forKey: "contentType")
        try container.encodeIfPresent(comment, forKey: "comment")
    }
}
