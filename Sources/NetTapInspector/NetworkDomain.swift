import Foundation
import NetTapCore

/// The Chrome DevTools Protocol `Network` domain of one inspector: what each connected frontend has enabled, the
/// replay of what the traffic already holds, the live events after it, bodies on request, and DevTools' throttling
/// and blocking commands (given to ``InspectorControls``).
///
/// `Network.enable` replays every transaction held, then streams each later event to that client. The replay is
/// taken and the client registered under one lock that live events also take, and a client skips a live event
/// its replay already showed (a transaction's start, response or end), so nothing is lost or shown twice.
///
/// Thread safety: every member may be used from any thread; live events arrive on the traffic's serial queue.
package final class NetworkDomain: Sendable {
    private struct State {
        /// Enabled clients, each with the furthest phase its replay showed of each transaction.
        var enabled: [Int: [UUID: Phase]] = [:]
        weak var server: InspectorServer?
        var observation: UUID?
        var liveEvents = 0
        /// Started requests whose `requestWillBeSent` waits for their answer, and since when.
        var held: [UUID: (transaction: CapturedTransaction, since: Date)] = [:]
        var isFlushScheduled = false
    }

    /// How far a transaction had got.
    enum Phase: Int, Comparable {
        case started, responded, finished

        static func < (lhs: Phase, rhs: Phase) -> Bool { lhs.rawValue < rhs.rawValue }

        init(_ event: TransactionEvent) {
            switch event {
            case .started: self = .started
            case .responseReceived: self = .responded
            case .finished: self = .finished
            }
        }

        init(_ transaction: CapturedTransaction) {
            if transaction.state != .pending && transaction.state != .receiving {
                self = .finished
            } else {
                self = transaction.response == nil ? .started : .responded
            }
        }
    }

    private let traffic: any InspectedTraffic
    /// DevTools' throttling and blocking; `nil` for recorded traffic (nothing to control).
    package let controls: InspectorControls?
    private let state = Locked(State())

    /// A domain showing `traffic`, its commands acting on `controls`.
    package init(traffic: any InspectedTraffic, controls: InspectorControls?) {
        self.traffic = traffic
        self.controls = controls
    }

    /// Starts streaming `traffic`'s events to the enabled clients of `server`.
    package func attach(to server: InspectorServer) {
        state.withLock { $0.server = server }
        let token = traffic.observe { [weak self] event in self?.live(event) }
        state.withLock { $0.observation = token }
    }

    /// Stops streaming and forgets every client.
    package func detach() {
        let token = state.withLock { state -> UUID? in
            defer { state = State() }
            return state.observation
        }
        if let token { traffic.stopObserving(token) }
    }

    /// Live events sent to at least one client so far.
    package var liveEventCount: Int { state.withLock { $0.liveEvents } }

    /// The clients that enabled the domain.
    package var enabledClients: Set<Int> { state.withLock { Set($0.enabled.keys) } }

    /// The answer to a `Network.*` command; `nil` for the methods answered with an empty result.
    package func answer(_ method: String, params: [String: Any], client: Int) -> DevToolsEndpoint.Answer? {
        switch method {
        case "Network.disable":
            _ = state.withLock { $0.enabled.removeValue(forKey: client) }
            return nil
        case "Network.getResponseBody":
            return NetworkBodies.responseBody(params, in: traffic)
        case "Network.getRequestPostData":
            return NetworkBodies.requestPostData(params, in: traffic)
        case "Network.emulateNetworkConditions", "Network.overrideNetworkState":
            controls?.setOverallConditions(params)
            return nil
        case "Network.emulateNetworkConditionsByRule":
            return .result(["ruleIds": controls?.setConditionsByRule(params) ?? []])
        case "Network.setBlockedURLs":
            controls?.setBlockedURLs(params)
            return nil
        default:
            return nil
        }
    }

    /// After `Network.enable` was answered: replays what the traffic holds to `client`, then streams to it.
    package func enable(_ client: Int, on server: InspectorServer) {
        state.withLock { state in
            guard state.enabled[client] == nil else { return }
            var replayed: [UUID: Phase] = [:]
            for transaction in traffic.transactions {
                for event in NetworkEvents.replay(transaction) { server.send(event.json, to: client) }
                replayed[transaction.id] = Phase(transaction)
            }
            state.enabled[client] = replayed
        }
    }

    /// A client went away.
    package func disconnected(_ client: Int) {
        _ = state.withLock { $0.enabled.removeValue(forKey: client) }
    }

    /// How long a request's start is held back waiting for its answer: 0.3 s.
    static let holdInterval = 0.3

    /// Sends an event to the enabled clients.
    ///
    /// A request's `requestWillBeSent` is held until its response arrives (or it ends), so that its `initiator`
    /// can say who answered; a request still unanswered after ``holdInterval`` is shown then, its initiator
    /// `nettap:pending`.
    private func live(_ event: TransactionEvent) {
        let transaction = event.transaction
        state.withLock { state in
            guard state.server != nil, !state.enabled.isEmpty else { return }
            if case .started = event {
                state.held[transaction.id] = (transaction, Date())
                if !state.isFlushScheduled { scheduleFlush(&state) }
                return
            }
            var messages: [(Phase, String)] = []
            if state.held.removeValue(forKey: transaction.id) != nil {
                messages.append((.started, NetworkEvents.requestWillBeSent(transaction).json))
            }
            let phase = Phase(event)
            messages += NetworkEvents.events(for: event).map { (phase, $0.json) }
            send(messages, about: transaction.id, &state)
        }
    }

    /// Sends messages about one transaction to each enabled client, skipping what its replay already showed.
    private func send(_ messages: [(Phase, String)], about id: UUID, _ state: inout State) {
        guard let server = state.server else { return }
        for (client, replayed) in state.enabled {
            let shown = replayed[id]
            for (phase, message) in messages where shown.map({ phase > $0 }) ?? true {
                server.send(message, to: client)
            }
            if messages.contains(where: { $0.0 == .finished }) { state.enabled[client]?[id] = nil }
        }
        state.liveEvents += 1
    }

    private func scheduleFlush(_ state: inout State) {
        state.isFlushScheduled = true
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.holdInterval) { [weak self] in
            self?.flushHeld()
        }
    }

    /// Shows the requests held longer than ``holdInterval``.
    private func flushHeld() {
        state.withLock { state in
            state.isFlushScheduled = false
            let due = Date().addingTimeInterval(-Self.holdInterval * 0.9)
            for (id, held) in state.held where held.since <= due {
                state.held[id] = nil
                let event = NetworkEvents.requestWillBeSent(held.transaction, isAnswered: false)
                send([(.started, event.json)], about: id, &state)
            }
            if !state.held.isEmpty { scheduleFlush(&state) }
        }
    }
}
