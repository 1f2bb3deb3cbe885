extension ReportCommand {
    /// The transactions the rewrite rules changed, under their heading: the app's URL, where a map remote sent it,
    /// and what changed.
    ///
    /// - Parameter summary: The summary.
    /// - Returns: Lines ending with a newline.
    static func rewritesText(_ summary: HARSummary) -> String {
        let count = summary.rewrites.count
        var output = "Rewritten by rewrite rules (\(count); entry N is the index in log.entries, from 0):\n"
        for entry in summary.rewrites {
            output += "  entry \(entry.index): \(entry.method) \(entry.url)\n"
            if let sentTo = entry.sentTo { output += "      sent to \(sentTo)\n" }
            for change in entry.changes { output += "      \(change)\n" }
        }
        return output
    }
}
