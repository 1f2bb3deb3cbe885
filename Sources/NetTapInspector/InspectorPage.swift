import Foundation

/// Pages the inspector server serves beside the DevTools endpoints (the control page): asked first, for every
/// request the server's policy let in.
package protocol InspectorPage: Sendable {
    /// The answer to a request for one of the page's paths; `nil` for a path it does not serve.
    func reply(to head: HTTPRequestHead, server: InspectorServer) -> InspectorReply?
}
