import Foundation

extension HARCreator {
    /// What NetTap writes into `creator.comment` of a HAR file whose secrets were redacted:
    /// `{"redaction": "on"}`.
    public static let redactionOnComment = #"{"redaction": "on"}"#

    /// What NetTap writes into `creator.comment` of a HAR file exported without redaction, so that opting out
    /// is visible in the file: `{"redaction": "off"}`.
    public static let redactionOffComment = #"{"redaction": "off"}"#

    /// Whether the comment records redaction: `true` for `"redaction": "on"`, `false` for `"redaction": "off"`,
    /// `nil` when it says neither (files of other tools, or of NetTap before it wrote this).
    ///
    /// The comment may be just the JSON object NetTap writes, or other text holding it.
    public var isRedacted: Bool? {
        guard let comment else { return nil }
        if let object = try? JSONSerialization.jsonObject(with: Data(comment.utf8)) as? [String: Any],
            let value = object["redaction"] as? String
        {
            return value == "on" ? true : value == "off" ? false : nil
        }
        if comment.contains(Self.redactionOffComment) { return false }
        if comment.contains(Self.redactionOnComment) { return true }
        return nil
    }

    /// A copy whose comment records whether the entries were redacted (``redactionOnComment`` or
    /// ``redactionOffComment``), replacing an earlier record and keeping any other comment text before it.
    ///
    /// A creator that already says `"redaction": "off"` keeps saying it: a file that holds unredacted entries
    /// stays marked even when redacted entries are added (a cassette recorded again).
    ///
    /// - Parameter isOn: Whether the entries written now were redacted.
    /// - Returns: The creator with the record in `comment`.
    public func recordingRedaction(_ isOn: Bool) -> HARCreator {
        var copy = self
        let stillOn = isOn && isRedacted != false
        let record = stillOn ? Self.redactionOnComment : Self.redactionOffComment
        var other = (comment ?? "")
            .replacingOccurrences(of: Self.redactionOnComment, with: "")
            .replacingOccurrences(of: Self.redactionOffComment, with: "")
            .trimmingCharacters(in: .whitespaces)
        if isRedacted != nil, (try? JSONSerialization.jsonObject(with: Data(other.utf8))) != nil {
            // The whole comment was a redaction record in another spelling: replace it.
            other = ""
        }
        copy.comment = other.isEmpty ? record : other + " " + record
        return copy
    }
}
