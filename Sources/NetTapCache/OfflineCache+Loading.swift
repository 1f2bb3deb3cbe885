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
        let (index, indexIsUnreadable) = readIndex(in: directory)
        var needsIndexWrite = indexIsUnreadable
        var files = listFiles(in: directory)
        let slots = orderedForEviction(
            verifiedSlots(of: &files, in: directory, index: index, needsIndexWrite: &needsIndexWrite)
        )
        let loaded = Set(slots.map(\.id))
        if index.keys.contains(where: { !loaded.contains($0) }) { needsIndexWrite = true }
        if removeLeftovers(files, in: directory) { needsIndexWrite = true }
        return (slots, needsIndexWrite)
    }

    /// The directory's files, sorted by what they are.
    private struct DirectoryFiles {
        /// The entries with a `<id>.body`.
        var bodies: Set<UUID> = []
        /// The readable `<id>.json` records.
        var records: [UUID: CachedEntryRecord] = [:]
        /// Files of writes that did not finish (`*.partial`).
        var strays: [URL] = []
        /// Entries with an unreadable record, or whose body is missing or has another size.
        var corrupt: [UUID] = []
    }

    /// The entries `index.json` lists, by id; `isUnreadable` (and a note) when the file is there but cannot be
    /// read.
    private static func readIndex(in directory: URL) -> (entries: [UUID: CacheIndexFile.Entry], isUnreadable: Bool) {
        let indexURL = directory.appendingPathComponent("index.json")
        var index: [UUID: CacheIndexFile.Entry] = [:]
        guard let data = FileManager.default.contents(atPath: indexURL.path) else { return (index, false) }
        guard let file = try? decoder.decode(CacheIndexFile.self, from: data),
            file.version == CachedEntryRecord.currentVersion
        else {
            CacheFiles.note("index.json is unreadable; rebuilt from the entries", directory: directory)
            return (index, true)
        }
        for entry in file.entries { index[entry.id] = entry }
        return (index, false)
    }

    /// Reads the records and notes the bodies, unfinished writes and unreadable records in the directory; other
    /// files are left out.
    private static func listFiles(in directory: URL) -> DirectoryFiles {
        let fileManager = FileManager.default
        var files = DirectoryFiles()
        let names = (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names {
            let url = directory.appendingPathComponent(name)
            if name.hasSuffix("." + CacheFiles.partialExtension) {
                files.strays.append(url)
                continue
            }
            let stem = (name as NSString).deletingPathExtension
            let fileExtension = (name as NSString).pathExtension
            guard let id = UUID(uuidString: stem) else { continue }
            switch fileExtension {
            case "body":
                files.bodies.insert(id)
            case "json":
                if let data = fileManager.contents(atPath: url.path),
                    let record = try? decoder.decode(CachedEntryRecord.self, from: data),
                    record.version == CachedEntryRecord.currentVersion
                {
                    files.records[id] = record
                } else {
                    files.corrupt.append(id)
                }
            default:
                break
            }
        }
        return files
    }

    /// A slot for each record whose body has the recorded size (the others join `files.corrupt`), with its use order
    /// from the index; one the index does not list sets `needsIndexWrite`.
    private static func verifiedSlots(
        of files: inout DirectoryFiles,
        in directory: URL,
        index: [UUID: CacheIndexFile.Entry],
        needsIndexWrite: inout Bool
    ) -> [Slot] {
        var slots: [Slot] = []
        for (id, record) in files.records {
            let bodyPath = directory.appendingPathComponent("\(id.uuidString).body").path
            let size = (try? FileManager.default.attributesOfItem(atPath: bodyPath))?[.size] as? NSNumber
            guard files.bodies.contains(id), size?.intValue == record.byteCount else {
                files.corrupt.append(id)
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
        return slots
    }

    /// The slots in eviction order, numbered 1, 2, … (keeping the index's numbers where they are higher).
    ///
    /// Unindexed entries (sequence 0) go first, oldest stored first; then the index's order.
    private static func orderedForEviction(_ slots: [Slot]) -> [Slot] {
        var slots = slots
        slots.sort { ($0.sequence, $0.record.storedDate) < ($1.sequence, $1.record.storedDate) }
        var sequence: UInt64 = 0
        for position in slots.indices {
            sequence = max(sequence + 1, slots[position].sequence)
            slots[position].sequence = sequence
        }
        return slots
    }

    /// Removes unfinished writes, bodies without a record and corrupt entries, with a note saying how many.
    /// - Returns: Whether anything was removed (the index must then be rewritten).
    private static func removeLeftovers(_ files: DirectoryFiles, in directory: URL) -> Bool {
        var strays = files.strays
        for id in files.bodies where files.records[id] == nil && !files.corrupt.contains(id) {
            strays.append(directory.appendingPathComponent("\(id.uuidString).body"))
        }
        let corrupt = files.corrupt
        CacheFiles.remove(strays)
        CacheFiles.remove(
            corrupt.flatMap {
                [
                    directory.appendingPathComponent("\($0.uuidString).json"),
                    directory.appendingPathComponent("\($0.uuidString).body"),
                ]
            }
        )
        guard !corrupt.isEmpty || !strays.isEmpty else { return false }
        var parts: [String] = []
        if !corrupt.isEmpty { parts.append("\(corrupt.count) unreadable or incomplete entries") }
        if !strays.isEmpty { parts.append("\(strays.count) leftover files of unfinished writes") }
        CacheFiles.note("removed " + parts.joined(separator: " and "), directory: directory)
        return true
    }
}
