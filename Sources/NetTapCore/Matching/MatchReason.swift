/// Formatting shared by matchers' miss reasons, which must stay short.
enum MatchReason {
    /// The longest value, in characters, quoted in a reason before it is cut with `…`.
    static let valueLimit = 60

    /// A value in double quotes, cut to ``valueLimit`` characters.
    static func quoted(_ value: String) -> String {
        "\"" + shortened(value) + "\""
    }

    /// A value cut to `limit` characters with a trailing `…`.
    static func shortened(_ value: String, limit: Int = valueLimit) -> String {
        value.count > limit ? String(value.prefix(limit)) + "…" : value
    }
}
