import Foundation

/// Memory and file-descriptor figures of this process, read from Linux `/proc/self` (proc(5)).
enum ProcessMetrics {
    /// The resident set size now (`VmRSS`), in bytes; `nil` when `/proc` is unavailable.
    static var residentBytes: Int64? { statusField("VmRSS") }

    /// The peak resident set size since start or the last ``resetPeakResident()`` (`VmHWM`), in bytes.
    static var peakResidentBytes: Int64? { statusField("VmHWM") }

    /// Resets the peak resident set size to the current one by writing `5` to `/proc/self/clear_refs`
    /// (Linux 4.0 and later).
    /// - Returns: Whether the reset worked; when not, `VmHWM` still holds the peak since start.
    @discardableResult
    static func resetPeakResident() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// The number of open file descriptors (entries of `/proc/self/fd`, not counting the one used to list it).
    /// - Returns: The count, or `nil` when `/proc` is unavailable.
    static func openFileDescriptorCount() -> Int? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else {
            return nil
        }
        return max(0, entries.count - 1)
    }

    /// The CPU time this process has used so far, user and system, in seconds (`CLOCK_PROCESS_CPUTIME_ID`,
    /// clock_gettime(2)); `nil` when the clock is unavailable.
    static var cpuSeconds: Double? {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return nil }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The 1, 5 and 15 minute load averages of the machine (first three fields of `/proc/loadavg`).
    static var loadAverage: String? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The open file descriptors by kind: `socket`, `pipe`, `anon_inode:[eventfd]` and the like, or `file`.
    /// - Returns: The count per kind (the descriptor used to list them is not counted); empty without `/proc`.
    static func openFileDescriptorKinds() -> [String: Int] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [:] }
        var kinds: [String: Int] = [:]
        for entry in entries {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry)
            else { continue }
            let kind: String
            if target.hasPrefix("socket:") {
                kind = "socket"
            } else if target.hasPrefix("pipe:") {
                kind = "pipe"
            } else if target.hasPrefix("anon_inode:") {
                kind = target
            } else if target.hasPrefix("/proc/") && target.hasSuffix("/fd") {
                continue
            } else {
                kind = "file"
            }
            kinds[kind, default: 0] += 1
        }
        return kinds
    }

    /// The number of threads of this process (`Threads` in `/proc/self/status`); `nil` without `/proc`.
    static var threadCount: Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
            return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// One `kB` field of `/proc/self/status` (for example `VmHWM:   123456 kB`), in bytes.
    /// - Parameter name: The field name without the colon.
    /// - Returns: The value in bytes, or `nil` when the file or the field is missing.
    static func statusField(_ name: String) -> Int64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let prefix = name + ":"
        for line in status.split(separator: "\n") where line.hasPrefix(prefix) {
            let fields = line.dropFirst(prefix.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = fields.first, let kibibytes = Int64(first) else { return nil }
            return kibibytes * 1024
        }
        return nil
    }
}
