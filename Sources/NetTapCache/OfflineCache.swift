import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The disk store behind ``OfflineCacheHandler``: complete `200` responses to `GET` requests, bounded in
/// size, evicted least recently used first, kept across launches.
///
/// ```
///  <directory>/
///    index.json                  size, last use and use order of every entry (JSON)
///    <id>.json                   one entry's key and response head (written once, never changed)
///    <id>.body                   one entry's body bytes (decoded, as the app received them)
///    <name>.partial              a file being written; removed when found at start-up
/// ```
///
/// An entry is keyed by method, absolute URL (without fragment; `https` included) and the values of the
/// request fields its response's `Vary` names (RFC 9111 §4.1). A body is written to `<id>.body.partial` as the
/// app receives it and renamed when complete; the entry exists once its `<id>.json` is renamed into place, so
/// a crash leaves only files that the next start-up removes.
///
/// Start-up reads every `<id>.json` and checks its body's size, so the cache survives a missing, stale or
/// corrupt `index.json` (entries it does not list count as least recently used); unreadable entries, bodies
/// without metadata and `.partial` files are removed, with one line on standard error saying so. The index is
/// rewritten in the background after every change (several changes coalesce into one write); ``flush()``
/// waits for that write.
///
/// Every file is created with mode 0600 (owner read and write only).
///
/// ```swift
/// let cache = try OfflineCache(directory: cachesURL.appendingPathComponent("offline"), maxBytes: 32 << 20)
/// interceptor.handlers = [OfflineCacheHandler(cache: cache)]
/// ```
///
/// Thread safety: every member may be used from any thread; the entry table sits behind a lock, which is never
/// held during file I/O.
public final class OfflineCache: Sendable {
    /// One stored entry, as ``entries`` lists it.
    public struct Entry: Sendable, Hashable {
        /// The request method, such as `GET`.
        public var method: String
        /// The request URL without fragment.
        public var url: String
        /// The response status code.
        public var statusCode: Int
        /// The body's size in bytes.
        public var byteCount: Int
        /// When the response arrived from the network.
        public var storedDate: Date
        /// When the entry was last stored or answered from.
        public var lastAccessDate: Date
    }

    /// The total size of stored bodies above which the least recently used entries are evicted: 64 MiB.
    public static let defaultMaxBytes = 64 * 1024 * 1024
    /// The largest body stored: 8 MiB.
    public static let defaultMaxEntryBytes = 8 * 1024 * 1024

    /// The directory that holds the entries and the index.
    public let directory: URL
    /// The most bytes of bodies kept in all; storing more evicts the least recently used entries.
    public let maxBytes: Int
    /// The largest body stored, in bytes; larger bodies pass to the app without being stored.
    public let maxEntryBytes: Int
    /// The wall clock for stored dates, last use and `Age`; injected so tests control time.
    let now: @Sendable () -> Date

    struct Slot: Sendable {
        var id: UUID
        var record: CachedEntryRecord
        var lastAccess: Date
        var sequence: UInt64
    }

    struct State {
        var slots: [UUID: Slot] = [:]
        var idsByKey: [String: [UUID]] = [:]
        var totalBytes = 0
        var sequence: UInt64 = 0
        var isIndexDirty = false
        var isWritingIndex = false
        var lastIndexWriteFailed = false
        var idleWaiters: [CheckedContinuation<Void, Never>] = []

        mutating func insert(_ slot: Slot) {
            slots[slot.id] = slot
            idsByKey[slot.record.primaryKey, default: []].append(slot.id)
            totalBytes += slot.record.byteCount
            sequence = max(sequence, slot.sequence)
        }

        @discardableResult
        mutating func remove(_ id: UUID) -> Slot? {
            guard let slot = slots.removeValue(forKey: id) else { return nil }
            let key = slot.record.primaryKey
            idsByKey[key]?.removeAll { $0 == id }
            if idsByKey[key]?.isEmpty == true { idsByKey[key] = nil }
            totalBytes -= slot.record.byteCount
            return slot
        }

        mutating func nextSequence() -> UInt64 {
            sequence += 1
            return sequence
        }
    }

    let state = Locked(State())
    private let indexQueue = DispatchQueue(label: "NetTapCache.OfflineCache.index", qos: .utility)

    /// Opens (or creates) a cache directory and loads the entries stored there.
    ///
    /// Loading reads each entry's metadata once; problems are repaired and reported on standard error, never
    /// thrown (see the type's documentation). When the stored bodies exceed `maxBytes` (the limit was
    /// lowered), the least recently used entries are evicted at once.
    /// - Parameters:
    ///   - directory: The cache directory; created (with intermediate directories) when missing.
    ///   - maxBytes: The most bytes of bodies kept in all, ≥ 1; 64 MiB by default.
    ///   - maxEntryBytes: The largest body stored in bytes, 1…`maxBytes`; 8 MiB (or `maxBytes` when smaller)
    ///     by default.
    ///   - now: The wall clock; `Date()` by default.
    /// - Throws: ``OfflineCacheError`` when a limit is out of range or the directory cannot be created or is a
    ///   file.
    /// - Complexity: O(*n*) file reads for *n* stored entries.
    public init(
        directory: URL,
        maxBytes: Int = OfflineCache.defaultMaxBytes,
        maxEntryBytes: Int? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        guard maxBytes >= 1 else { throw OfflineCacheError("maxBytes must be at least 1 byte, found \(maxBytes)") }
        let entryLimit = maxEntryBytes ?? min(Self.defaultMaxEntryBytes, maxBytes)
        guard (1...maxBytes).contains(entryLimit) else {
            throw OfflineCacheError(
                "maxEntryBytes must be between 1 and maxBytes (\(maxBytes)) bytes, found \(entryLimit)"
            )
        }
        self.directory = directory.standardizedFileURL
        self.maxBytes = maxBytes
        self.maxEntryBytes = entryLimit
        self.now = now
        try Self.prepare(directory: self.directory)
        let loaded = Self.load(directory: self.directory)
        let evicted = state.withLock { state -> [UUID] in
            for slot in loaded.slots { state.insert(slot) }
            return Self.evict(&state, toFit: maxBytes, keeping: nil)
        }
        removeFiles(of: evicted)
        if loaded.needsIndexWrite || !evicted.isEmpty { scheduleIndexWrite() }
    }

    // MARK: - Inspecting

    /// The stored entries, most recently used first.
    ///
    /// - Complexity: O(*n* log *n*) for *n* entries.
    public var entries: [Entry] {
        state.withLock { state in
            state.slots.values.sorted { $0.sequence > $1.sequence }.map { slot in
                Entry(
                    method: slot.record.method,
                    url: slot.record.url,
                    statusCode: slot.record.statusCode,
                    byteCount: slot.record.byteCount,
                    storedDate: slot.record.storedDate,
                    lastAccessDate: slot.lastAccess
                )
            }
        }
    }

    /// The size of all stored bodies, in bytes (never more than ``maxBytes``).
    public var totalBytes: Int { state.withLock { $0.totalBytes } }

    /// Removes every entry and its files.
    public func removeAll() {
        let ids = state.withLock { state -> [UUID] in
            let ids = Array(state.slots.keys)
            for id in ids { state.remove(id) }
            return ids
        }
        removeFiles(of: ids)
        scheduleIndexWrite()
    }

    /// Waits until the index file reflects every change made before the call.
    ///
    /// Entries themselves are on disk as soon as they exist; only the use order in `index.json` is written in
    /// the background. Call this before the process ends when the exact least-recently-used order matters.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isIdle = state.withLock { state -> Bool in
                guard state.isWritingIndex || state.isIndexDirty else { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if isIdle { continuation.resume() }
        }
    }

    // MARK: - Keys and files

    /// The primary key of a request: upper-cased method and absolute URL without fragment, or `nil` without URL.
    static func primaryKey(for request: URLRequest) -> (key: String, url: String)? {
        guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return nil
        }
        components.fragment = nil
        guard let absolute = components.url?.absoluteString else { return nil }
        let method = (request.httpMethod ?? "GET").uppercased()
        return ("\(method) \(absolute)", absolute)
    }

    func bodyURL(_ id: UUID) -> URL { directory.appendingPathComponent("\(id.uuidString).body") }
    func metadataURL(_ id: UUID) -> URL { directory.appendingPathComponent("\(id.uuidString).json") }
    var indexURL: URL { directory.appendingPathComponent("index.json") }

    func removeFiles(of ids: [UUID]) {
        CacheFiles.remove(ids.flatMap { [metadataURL($0), bodyURL($0)] })
    }

    // MARK: - Lookup, commit, removal

    /// The newest entry for `request` whose varying fields match, marked as just used, with its body opened.
    ///
    /// - Returns: The entry's metadata and an open handle on its body, or `nil` when there is none (an entry
    ///   whose body file cannot be opened is dropped).
    /// - Complexity: O(*v*) for *v* stored variants of the URL.
    func lookup(_ request: URLRequest) -> (record: CachedEntryRecord, body: FileHandle)? {
        guard let key = Self.primaryKey(for: request)?.key else { return nil }
        let date = now()
        let found = state.withLock { state -> Slot? in
            let candidates = (state.idsByKey[key] ?? []).compactMap { state.slots[$0] }
            let matching = candidates.filter { $0.record.matchesVary(of: request) }
            guard var slot = matching.max(by: { $0.sequence < $1.sequence }) else { return nil }
            slot.sequence = state.nextSequence()
            slot.lastAccess = date
            state.slots[slot.id] = slot
            return slot
        }
        guard let found else { return nil }
        scheduleIndexWrite()
        guard let handle = FileHandle(forReadingAtPath: bodyURL(found.id).path) else {
            CacheFiles.note("the body of \(found.record.primaryKey) is missing; entry removed", directory: directory)
            state.withLock { _ = $0.remove(found.id) }
            removeFiles(of: [found.id])
            scheduleIndexWrite()
            return nil
        }
        return (found.record, handle)
    }

    /// Makes a completely written body an entry: renames it into place, writes its metadata, replaces the
    /// entry for the same variant and evicts least recently used entries beyond ``maxBytes``.
    ///
    /// - Parameters:
    ///   - id: The new entry's identifier (its body was written to `<id>.body.partial`).
    ///   - record: The metadata, with the final byte count.
    /// - Returns: Whether the entry was stored; failures are noted on standard error and leave no files.
    /// - Complexity: O(*n*) for *n* entries per evicted entry.
    @discardableResult
    func commit(id: UUID, record: CachedEntryRecord) -> Bool {
        let partial = bodyURL(id).appendingPathExtension(CacheFiles.partialExtension)
        do {
            try CacheFiles.rename(partial, to: bodyURL(id))
            try CacheFiles.writeAtomically(Self.encoder.encode(record), to: metadataURL(id))
        } catch {
            CacheFiles.note("could not store \(record.primaryKey): \(error)", directory: directory)
            CacheFiles.remove([partial, bodyURL(id), metadataURL(id)])
            return false
        }
        let date = now()
        let removed = state.withLock { state -> [UUID] in
            var removed = (state.idsByKey[record.primaryKey] ?? []).filter {
                state.slots[$0]?.record.vary == record.vary
            }
            for old in removed { state.remove(old) }
            state.insert(Slot(id: id, record: record, lastAccess: date, sequence: state.nextSequence()))
            removed += Self.evict(&state, toFit: maxBytes, keeping: id)
            return removed
        }
        removeFiles(of: removed)
        scheduleIndexWrite()
        return true
    }

    /// Removes the entries that would answer `request` (its variant), for a response that forbids storing.
    func remove(matching request: URLRequest) {
        guard let key = Self.primaryKey(for: request)?.key else { return }
        let removed = state.withLock { state -> [UUID] in
            let ids = (state.idsByKey[key] ?? []).filter { state.slots[$0]?.record.matchesVary(of: request) == true }
            for id in ids { state.remove(id) }
            return ids
        }
        guard !removed.isEmpty else { return }
        removeFiles(of: removed)
        scheduleIndexWrite()
    }

    /// Evicts least recently used entries (other than `keeping`) until the total fits `limit`.
    static func evict(_ state: inout State, toFit limit: Int, keeping: UUID?) -> [UUID] {
        var evicted: [UUID] = []
        while state.totalBytes > limit {
            let victim = state.slots.values.filter { $0.id != keeping }.min { $0.sequence < $1.sequence }
            guard let victim else { break }
            state.remove(victim.id)
            evicted.append(victim.id)
        }
        return evicted
    }

    // MARK: - The index

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// Marks the index as changed and starts the background writer unless it runs already.
    func scheduleIndexWrite() {
        let start = state.withLock { state -> Bool in
            state.isIndexDirty = true
            guard !state.isWritingIndex else { return false }
            state.isWritingIndex = true
            return true
        }
        guard start else { return }
        indexQueue.async { [self] in writeIndexUntilClean() }
    }

    /// Writes the index until no change is pending, then wakes ``flush()`` callers.
    private func writeIndexUntilClean() {
        while true {
            let (snapshot, waiters) = state.withLock {
                state -> (CacheIndexFile?, [CheckedContinuation<Void, Never>]) in
                guard state.isIndexDirty else {
                    state.isWritingIndex = false
                    defer { state.idleWaiters = [] }
                    return (nil, state.idleWaiters)
                }
                state.isIndexDirty = false
                let entries = state.slots.values.sorted { $0.sequence > $1.sequence }.map {
                    CacheIndexFile.Entry(
                        id: $0.id,
                        byteCount: $0.record.byteCount,
                        lastAccess: $0.lastAccess,
                        sequence: $0.sequence
                    )
                }
                return (CacheIndexFile(entries: entries), [])
            }
            guard let snapshot else {
                for waiter in waiters { waiter.resume() }
                return
            }
            var failure: (any Error)?
            do {
                try CacheFiles.writeAtomically(Self.encoder.encode(snapshot), to: indexURL)
            } catch {
                failure = error
            }
            let isNewFailure = state.withLock { state -> Bool in
                defer { state.lastIndexWriteFailed = failure != nil }
                return failure != nil && !state.lastIndexWriteFailed
            }
            // A directory removed from outside (the cache cleared by hand, a test cleaning up) is not news.
            if isNewFailure, let failure, FileManager.default.fileExists(atPath: directory.path) {
                // Entries stay usable (their metadata is on disk); only the use order may be lost.
                CacheFiles.note("could not write index.json: \(failure)", directory: directory)
            }
        }
    }
}
