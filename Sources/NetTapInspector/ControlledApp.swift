import Foundation
import NetTapCore
import NetTapMocking

/// The running app the control page switches: its interceptor and the inspector's controls on it.
struct ControlledApp: Sendable {
    let interceptor: NetTapInterceptor
    let controls: InspectorControls

    /// The mock sets of the app's `MockHandler`s, in handler order, looked up at each call (handlers may change).
    var mockSets: [(handler: String, mocks: MockSet)] {
        interceptor.handlers.compactMap { handler in
            (handler as? MockHandler).map { (handler: $0.name, mocks: $0.mocks) }
        }
    }
}
