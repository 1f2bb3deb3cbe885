import NetTapAudit
import NetTapCache
import NetTapCore
import NetTapFiles
import NetTapIntegrity
import NetTapMocking
import NetTapReplay
import NetTapRewrite
import NetTapShaping

extension NetTapConfiguration {
    /// The handler list with configured handlers placed among an interceptor's current ones.
    ///
    /// - Parameters:
    ///   - configured: NetTap's handlers, in ``handlerOrder``.
    ///   - current: The interceptor's handlers, the app's own among them.
    /// - Returns: `current` where each configured handler replaces the first of its kind, or is inserted before
    ///   the first of NetTap's handlers that belongs further in, else appended.
    package static func placing(
        _ configured: [any TransactionHandler],
        among current: [any TransactionHandler]
    ) -> [any TransactionHandler] {
        var result = current
        for handler in configured {
            guard let layer = layer(of: handler) else { continue }
            if let same = result.firstIndex(where: { Self.layer(of: $0) == layer }) {
                result[same] = handler
            } else if let further = result.firstIndex(where: { Self.layer(of: $0).map { $0 > layer } ?? false }) {
                result.insert(handler, at: further)
            } else {
                result.append(handler)
            }
        }
        return result
    }

    /// The layer of one of NetTap's configurable handlers, or `nil` for any other handler.
    static func layer(of handler: any TransactionHandler) -> HandlerLayer? {
        switch handler {
        case is AuditHandler: .audit
        case is ShapingHandler: .shaping
        case is IntegrityHandler: .integrity
        case is MockHandler: .mock
        case is LocalFilesHandler: .files
        case is ReplayHandler: .cassette
        case is RewriteHandler: .rewrite
        case is OfflineCacheHandler: .cache
        default: nil
        }
    }
}
