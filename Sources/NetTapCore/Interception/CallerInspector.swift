import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What NetTap learns about the app's task that a `URLProtocol` cannot see through public API.
///
/// On Linux (swift-corelibs-foundation) the protocol sees neither the caller's session settings nor an
/// upload task's body, and cannot tell a completion-handler caller from a delegate caller. These facts
/// live in internal stored properties (`session`, `knownBody`, `workQueue`, the session's `taskRegistry`),
/// reached here, and only here, by reflection. Every lookup is optional: when the internals change,
/// the result says "unknown" and NetTap takes the safe path (buffer the body, pass the request through
/// untouched). `CallerInspectorTests` fails loudly if a lookup stops working on this toolchain.
package struct CallerInfo: @unchecked Sendable {
    /// How the caller consumes the response body.
    package enum Delivery: Equatable, Sendable {
        /// A session delegate receives `didReceive data` per chunk: stream chunk by chunk.
        case streamToDelegate
        /// A completion handler, async API or no data delegate: deliver one buffer (Linux keeps only the
        /// last `didLoad` chunk for these callers).
        case singleBuffer
    }

    /// What the upload task carries as its body, when the caller is an upload task.
    package enum UploadBody {
        case none
        case data(Data)
        case file(URL)
        case stream(InputStream)
        case unknown
    }

    /// The caller's session, when reachable.
    package var session: URLSession?
    /// The caller's session configuration, when reachable.
    package var configuration: URLSessionConfiguration?
    /// The forwarding profile of the caller's session, when reachable.
    package var profile: ForwardingProfile?
    /// The task's serial work queue, which targets the process-wide URLSession queue.
    package var workQueue: DispatchQueue?
    /// How to deliver the body.
    package var delivery: Delivery
    /// Whether the task is a download task (always passed through untouched).
    package var isDownload: Bool
    /// The upload body, for upload tasks; `.none` for other tasks.
    package var uploadBody: UploadBody
}

package enum CallerInspector {
    /// Inspects the task a protocol instance serves.
    package static func inspect(_ task: URLSessionTask?) -> CallerInfo {
        guard let task else {
            return CallerInfo(delivery: .singleBuffer, isDownload: false, uploadBody: .none)
        }
        #if canImport(FoundationNetworking)
        let properties = storedProperties(["session", "workQueue", "knownBody"], of: task)
        let session = properties["session"].flatMap { $0 as? URLSession }
        let workQueue = properties["workQueue"].flatMap { $0 as? DispatchQueue }
        let isDownload = task is URLSessionDownloadTask
        var uploadBody = CallerInfo.UploadBody.none
        if task is URLSessionUploadTask {
            uploadBody = properties["knownBody"].map(uploadBody(from:)) ?? .unknown
        }
        let facts = session.map(SessionFacts.of)
        let delivery: CallerInfo.Delivery
        if let session, let facts, facts.hasDataDelegate, task is URLSessionDataTask {
            delivery = deliveryMode(task: task, session: session)
        } else {
            delivery = .singleBuffer
        }
        return CallerInfo(
            session: session,
            configuration: facts?.configuration,
            profile: facts?.profile,
            workQueue: workQueue,
            delivery: delivery,
            isDownload: isDownload,
            uploadBody: uploadBody
        )
        #else
        // Apple's URL Loading System appends every didLoad chunk for every kind of caller.
        return CallerInfo(
            session: nil,
            configuration: nil,
            profile: nil,
            workQueue: nil,
            delivery: .streamToDelegate,
            isDownload: task is URLSessionDownloadTask,
            uploadBody: .none
        )
        #endif
    }

    #if canImport(FoundationNetworking)
    /// Reads the task's behaviour from the session's task registry: `callDelegate` tasks of a session with a
    /// data delegate get chunks; everything else gets one buffer.
    private static func deliveryMode(task: URLSessionTask, session: URLSession) -> CallerInfo.Delivery {
        guard let registry = storedProperty("taskRegistry", of: session).flatMap({ unwrap($0) }),
            let behaviours = storedProperty("behaviours", of: registry).flatMap({ unwrap($0) })
        else {
            return .singleBuffer
        }
        // `[Int: _Behaviour]`: looked up by the task's identifier without copying or reflecting the dictionary.
        guard let table = behaviours as? any TaskIdentifierKeyed,
            let behaviour = table.value(forTaskIdentifier: task.taskIdentifier)
        else {
            return .singleBuffer
        }
        // `callDelegate` has no payload; the completion-handler cases have one (their label is the case name).
        let caseName = Mirror(reflecting: behaviour).children.first?.label ?? String(describing: behaviour)
        return caseName == "callDelegate" ? .streamToDelegate : .singleBuffer
    }

    private static func uploadBody(from raw: Any) -> CallerInfo.UploadBody {
        guard let body = unwrap(raw) else { return .none }
        let mirror = Mirror(reflecting: body)
        guard let child = mirror.children.first else {
            // A case without payload: `.none`.
            return String(describing: body) == "none" ? .none : .unknown
        }
        switch child.label {
        case "data":
            if let dispatchData = child.value as? DispatchData {
                return .data(Data(dispatchData))
            }
            return .unknown
        case "file":
            return (child.value as? URL).map { .file($0) } ?? .unknown
        case "stream":
            return (child.value as? InputStream).map { .stream($0) } ?? .unknown
        default:
            return .unknown
        }
    }
    #endif

    /// The values of the stored properties named in `names` that `subject`'s class or superclasses have
    /// (``StoredFieldReader``: the runtime's field table, read once per class).
    static func storedProperties(_ names: Set<String>, of subject: AnyObject) -> [String: Any] {
        var found: [String: Any] = [:]
        for name in names {
            if let value = StoredFieldReader.value(name, of: subject) { found[name] = value }
        }
        return found
    }

    /// The value of a stored property named `name`, searching superclasses too (through ``StoredFieldReader``
    /// for class instances, `Mirror` for values).
    static func storedProperty(_ name: String, of subject: Any) -> Any? {
        if Swift.type(of: subject) is AnyClass {
            return StoredFieldReader.value(name, of: subject as AnyObject)
        }
        return Mirror(reflecting: subject).children.first(where: { $0.label == name })?.value
    }

    /// Unwraps `Optional` (and implicitly unwrapped optionals) hidden in an `Any`.
    static func unwrap(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        guard let child = mirror.children.first else { return nil }
        return unwrap(child.value)
    }
}

#if canImport(FoundationNetworking)
/// A dictionary keyed by task identifiers, whatever its value type (the session's task registry keeps an internal
/// enum per task).
private protocol TaskIdentifierKeyed {
    func value(forTaskIdentifier identifier: Int) -> Any?
}

extension Dictionary: TaskIdentifierKeyed where Key == Int {
    fileprivate func value(forTaskIdentifier identifier: Int) -> Any? {
        self[identifier]
    }
}
#endif
