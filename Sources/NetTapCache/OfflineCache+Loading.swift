import Foundation

extension OfflineCache {
    /// Creates the directory (mode 0700) when missing.
    ///
    /// - Throws: ``OfflineCacheError`` when it cannot be created or is not a directory.
    static func prepare(directory: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw OfflineCacheError("offline cache directory \(directory.path) is a file, not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw OfflineCacheError(
                "offline cache directory \(directory.path) cannot be created: \(creationProblem(directory))"
            )
        }
    }

    /// Why a directory cannot be created, in words: the nearest existing ancestor that is a file, or that cannot
    /// be written to (Foundation's own text on Linux is "The operation could not be completed").
    private static func creationProblem(_ directory: URL) -> String {
        var ancestor = directory.deletingLastPathComponent()
        while ancestor.path != "/" {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { return "\(ancestor.path) is a file, not a directory" }
                if !FileManager.default.isWritableFile(atPath: ancestor.path) {
                    return "\(ancestor.path) is not writable (permission denied)"
                }
                break
            }
            ancestor = ancestor.deletingLastPathComponent()
        }
        return "the file system refused to create it"
    }

    /// Reads every entry in the directory, repairing what it can and noting the rest on standard error.
    ///
    /// - `<id>.json` with a readable record and a `<id>.body` of the recorded size: an entry, its use order
    ///   from `index.json` (entries the index does not list come first in eviction order, oldest stored first).
    /// - An unreadable `<id>.json`, or one whose body is missing or has another size: both files removed.
    /// - `<id>.body` without `<id>.json`, and `*.partial`: removed (a write that did not finish).
    /// - Other files are left alone.
    /// - Returns: The entries, and whether the index must be rewritten (it was unreadable or disagreed).
    static func load(directory: URL) -> (slots: [Slot], needsIndexWrite: Bool) {
        let fileManager = FileManager.default
        let indexURL = directory.appendingPathComponent("index.json")
        var index: [UUID: CacheIndexFile.Entry] = [:]
        var needsIndexWrite = false
        if let data = fileManager.contents(atPath: indexURL.path) {
            if let file = try? decoder.decode(CacheIndexFile.self, from: data),
                file.version == CachedEntryRecord.currentVersion
            {
                for entry in file.entries { index[entry.id] = entry }
            } else {
                CacheFiles.note("index.json is unreadable; rebuilt from the entries", directory: directory)
                needsIndexWrite = true
            }
        }
        let names = (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? []
        var bodies: Set<UUID> = []
        var records: [UUID: CachedEntryRecord] = [:]
        var strays: [URL] = []
        var corrupt: [UUID] = []
        for name in names {
            let url = directory.appendingPathComponent(name)
            if name.hasSuffix("." + CacheFiles.partialExtension) {
                strays.append(url)
                continue
            }
            let stem = (name as NSString).deletingPathExtension
            let fileExtension = (name as NSString).pathExtension
            guard let id = UUID(uuidString: stem) else { continue }
            switch fileExtension {
            case "body":
                bodies.insert(id)
            case "json":
                if let data = fileManager.contents(atPath: url.path),
                    let record = try? decoder.decode(CachedEntryRecord.self, from: data),
                    record.version == CachedEntryRecord.currentVersion
                {
                    records[id] = record
                } else {
                    corrupt.append(id)
                }
            default:
                break
            }
        }
        var slots: [Slot] = []
        for (id, record) in records {
            let bodyPath = directory.appendingPathComponent("\(id.uuidString).body").path
            let size = (try? fileManager.attributesOfItem(atPath: bodyPath))?[.size] as? NSNumber
            guard bodies.contains(id), size?.intValue == record.byteCount else {
                corrupt.append(id)
                continue
            }
            let indexed = index[id]
            if indexed == nil { needsIndexWrite = true }
            slots.append(
                Slot(
                    id: id,
                    record: record,
                    lastAccess: indexed?.lastAccess ?? record.storedDate,
                    sequence: indexed?.sequence ?? 0
                )
            )
        }
        // Unindexed entries (sequence 0) go first in eviction order, oldest stored first; then the index's order.
        slots.sort { ($0.sequence, $0.record.storedDate) < ($1.sequence, $1.record.storedDate) }
        var sequence: UInt64 = 0
        for position in slots.indices {
            sequence = max(sequence + 1, slots[position].sequence)
            slots[position].sequence = sequence
        }
        for id in bodies where records[id] == nil && !corrupt.contains(id) {
            strays.append(directory.appendingPathComponent("\(id.uuidString).body"))
        }
        let loaded = Set(slots.map(\.id))
        if index.keys.contains(where: { !loaded.contains($0) }) { needsIndexWrite = true }
        CacheFiles.remove(strays)
        CacheFiles.remove(
            corrupt.flatMap {
                [
                    directory.appendingPathComponent("\($0.uuidString).json"),
                    directory.appendingPathComponent("\($0.uuidString).body"),
                ]
            }
        )
        if !corrupt.isEmpty || !strays.isEmpty {
            var parts: [String] = []
            if !corrupt.isEmpty { parts.append("\(corrupt.count) unreadable or incomplete entries") }
            if !strays.isEmpty { parts.append("\(strays.count) leftover files of unfinished writes") }
            CacheFiles.note("removed " + parts.joined(separator: " and "), directory: directory)
            needsIndexWrite = true
        }
        return (slots, needsIndexWrite)
    }
}
