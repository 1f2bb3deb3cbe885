import Foundation
import NetTapCore
import NetTapMocking

/// One change the control page asks for: `POST /control/ACTION?name=value&…`, effective for the next request.
///
/// Errors name what was wrong; the page puts the action before them (`alternative: no stub named "x"; …`).
///
/// | Action | Query | Sets |
/// |---|---|---|
/// | `capture` | `on=1` or `on=0` | `CaptureLog.isCapturing` |
/// | `scope` | `allow`, `deny`: patterns, one per line or comma | `NetTapInterceptor.scope` |
/// | `profile` | `preset` (empty or absent: the app's own) | the overall network profile |
/// | `rule` | `host`, `preset` | a per-host rule, ahead of the others |
/// | `rule/remove` | `host` | removes the control page's rule for that host |
/// | `scenario` | `mocks` (index), `name` (empty: none) | `MockSet.activate(scenario:)` |
/// | `alternative` | `mocks`, `stub`, `name`, optional `scenario` | `MockSet.select(alternative:for:in:)` |
enum ControlAction: Equatable {
    case capture(Bool)
    case scope(allow: [String], deny: [String])
    case profile(preset: String?)
    case addRule(host: String, preset: String)
    case removeRule(host: String)
    case scenario(mocks: Int, name: String?)
    case alternative(mocks: Int, stub: String, scenario: String?, name: String)

    /// The action a path under `/control/` names, with its query; `nil` for an unknown action.
    ///
    /// - Throws: ``InspectorError`` naming a missing or invalid query item.
    init?(action: String, query: String?) throws(InspectorError) {
        let items = Self.items(query)
        func value(_ name: String) throws(InspectorError) -> String {
            guard let value = items[name] else {
                throw InspectorError("the query item \"\(name)\" is missing")
            }
            return value
        }
        func index() throws(InspectorError) -> Int {
            let text = try value("mocks")
            guard let index = Int(text), index >= 0 else {
                throw InspectorError("\"mocks\" must be a mock set's index from 0, found \"\(text)\"")
            }
            return index
        }
        switch action {
        case "capture":
            let on = try value("on")
            guard on == "1" || on == "0" else {
                throw InspectorError("\"on\" must be 1 or 0, found \"\(on)\"")
            }
            self = .capture(on == "1")
        case "scope":
            self = .scope(allow: Self.patterns(items["allow"]), deny: Self.patterns(items["deny"]))
        case "profile":
            self = .profile(preset: items["preset"].flatMap { $0.isEmpty ? nil : $0 })
        case "rule":
            self = .addRule(host: try value("host"), preset: try value("preset"))
        case "rule/remove":
            self = .removeRule(host: try value("host"))
        case "scenario":
            self = .scenario(mocks: try index(), name: items["name"].flatMap { $0.isEmpty ? nil : $0 })
        case "alternative":
            let scenario = items["scenario"].flatMap { $0.isEmpty ? nil : $0 }
            self = .alternative(
                mocks: try index(),
                stub: try value("stub"),
                scenario: scenario,
                name: try value("name")
            )
        default:
            return nil
        }
    }

    /// Makes the change.
    ///
    /// - Throws: ``InspectorError`` with the reason a change was refused (a bad pattern, an unknown preset,
    ///   scenario, stub or alternative), naming what was asked for.
    func apply(to app: ControlledApp) throws(InspectorError) {
        switch self {
        case .capture(let on):
            app.interceptor.captureLog.isCapturing = on
        case .scope(let allow, let deny):
            do {
                app.interceptor.scope = try HostScope.parsing(allowHosts: allow, denyHosts: deny)
            } catch {
                throw InspectorError("\(error)")
            }
        case .profile(let preset):
            try app.controls.setPreset(preset)
        case .addRule(let host, let preset):
            try app.controls.addHostRule(host: host, preset: preset)
        case .removeRule(let host):
            guard app.controls.removeHostRule(host: host) else {
                throw InspectorError("no control page rule for \"\(host)\"")
            }
        case .scenario(let index, let name):
            let mocks = try Self.mockSet(index, of: app)
            do { try mocks.activate(scenario: name) } catch { throw InspectorError("\(error)") }
        case .alternative(let index, let stub, let scenario, let name):
            let mocks = try Self.mockSet(index, of: app)
            do {
                try mocks.select(alternative: name, for: stub, in: scenario)
            } catch {
                throw InspectorError("\(error)")
            }
        }
    }

    private static func mockSet(_ index: Int, of app: ControlledApp) throws(InspectorError) -> MockSet {
        let sets = app.mockSets
        guard sets.indices.contains(index) else {
            throw InspectorError(
                "no mock set \(index): the app has \(sets.count), numbered from 0 (its MockHandlers, in handler order)"
            )
        }
        return sets[index].mocks
    }

    /// The query's items by name (the last of a repeated name), as `URLComponents` decodes them (`+` is a space, as
    /// in forms); a query it cannot read has no items, so the action says which one is missing.
    private static func items(_ query: String?) -> [String: String] {
        let encoded = (query ?? "").replacingOccurrences(of: "+", with: "%20")
        let items = URLComponents(string: "/?" + encoded)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
    }

    /// Patterns written one per line or separated by commas, trimmed, empty ones left out.
    private static func patterns(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: { $0 == "\n" || $0 == "," || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}
