import Foundation

/// What a template's answer draws on besides the request: the random ids and the date.
struct TemplateEnvironment: Sendable {
    /// The answer's `{{randomId}}`, drawn by the mock set with the match (empty when its templates have none).
    var randomId: String
    /// The date `{{now}}` renders.
    var now: Date
}
