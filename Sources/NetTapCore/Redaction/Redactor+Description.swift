extension Redactor: CustomStringConvertible {
    /// A few words: whether it redacts, how many rules and exceptions, and whether tokens are looked for
    /// (`Redactor(on: 41 rules, 0 exceptions, tokens)`); ``rules`` lists the rules.
    public var description: String {
        guard isEnabled else { return "Redactor(off)" }
        let tokens = redactsTokens ? ", tokens" : ""
        return "Redactor(on: \(rules.count) rules, \(exceptions.count) exceptions\(tokens))"
    }
}
