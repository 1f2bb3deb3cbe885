import NetTapCore

extension RequestMatcher {
    /// Whether this is ``RequestMatcher/any``: a rule with it is shown without its matcher.
    var isAny: Bool {
        specificity == 0 && configuration == [:] && description == "any request"
    }
}
