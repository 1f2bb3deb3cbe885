import NetTapHAR

extension HAREntry {
    /// The entry as the app asked for it: the request of a transaction a map remote sent elsewhere (NetTap's
    /// `rewrite.original-url` annotation in its `_netTap` record) has the app's URL back.
    ///
    /// Stubs sit above the rewrite rules and match what the app sends, so a stub saved from such an entry must
    /// match the app's URL, not the server it was mapped to.
    var asRequestedByTheApp: HAREntry {
        guard let original = netTap?.annotations?["rewrite.original-url"] else { return self }
        var entry = self
        entry.request.url = original
        return entry
    }
}
