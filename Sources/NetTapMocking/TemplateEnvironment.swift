import Foundation

/// What a template's answer draws on besides the request: the random ids and the date.
struct TemplateEnvironment: Sendable {
    /// Draws the answer's `{{randomId}}` (called at most once per answer).
    var randomId: @Sendable () -> String
    /// The date `{{now}}` renders.
    var now: Date
}
