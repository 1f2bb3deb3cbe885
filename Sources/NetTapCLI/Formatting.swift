import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Small text helpers shared by the commands: reason phrases, error names, number formats.
enum Formatting {
    /// The RFC 9110 §15 reason phrase of common status codes, or an empty string.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 410: "Gone"
        case 415: "Unsupported Media Type"
        case 418: "I'm a teapot"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }

    /// `200 OK`, or just `299` when the code has no known phrase.
    static func statusLine(_ status: Int) -> String {
        let phrase = reasonPhrase(status)
        return phrase.isEmpty ? "\(status)" : "\(status) \(phrase)"
    }

    /// `URLError -1004 (cannotConnectToHost)` for any error; other errors give their domain and code.
    static func errorSummary(_ error: any Error) -> String {
        if let urlError = error as? URLError {
            let code = urlError.errorCode
            let name = URLErrorNames.name(ofRawValue: code).map { " (\($0))" } ?? ""
            return "URLError \(code)\(name)"
        }
        let ns = error as NSError
        if ns.domain == NSURLErrorDomain {
            let name = URLErrorNames.name(ofRawValue: ns.code).map { " (\($0))" } ?? ""
            return "URLError \(ns.code)\(name)"
        }
        return "\(ns.domain) \(ns.code): \(ns.localizedDescription)"
    }

    /// ``errorSummary(_:)`` followed by the error's own description when it has one, as the platform worded it:
    /// `URLError -1 (unknown): transfer closed with 600 bytes remaining to read`.
    static func errorDetail(_ error: any Error) -> String {
        let ns = error as NSError
        guard ns.domain == NSURLErrorDomain, let text = ns.userInfo[NSLocalizedDescriptionKey] as? String,
            !text.isEmpty
        else { return errorSummary(error) }
        return errorSummary(error) + ": " + text.replacingOccurrences(of: "\n", with: " ")
    }

    /// Milliseconds with one decimal, for example `12.3`.
    static func milliseconds(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// Whether a body should be printed as text: a textual content type (or none) and valid UTF-8 without NUL.
    static func isText(_ data: Data, contentType: String?) -> Bool {
        if let contentType = contentType?.lowercased() {
            let textual =
                contentType.hasPrefix("text/") || contentType.contains("json") || contentType.contains("xml")
                || contentType.contains("javascript") || contentType.contains("x-www-form-urlencoded")
                || contentType.contains("html")
            if !textual { return false }
        }
        guard !data.contains(0) else { return false }
        return String(data: data, encoding: .utf8) != nil
    }

    /// Quotes a user's input for an error line: `"value"` with inner quotes and control characters (CR, LF, tab,
    /// NUL) escaped, so the error stays on one line.
    static func quoted(_ value: String) -> String {
        // By Unicode scalar: "\r\n" is one Character, and each half must be escaped.
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\r": escaped += "\\r"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\0": escaped += "\\0"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"" + escaped + "\""
    }

    /// Why a path cannot be read as a file, in words: `nil` when it is a readable regular file.
    static func unreadableFileReason(_ url: URL) -> String? {
        switch InputFile.problem(at: url) {
        case nil: nil
        case .directory: "is a directory, not a file"
        case let problem?: problem.reason
        }
    }

    /// Why a file cannot be written at `url`, in words: the folder is missing or is not a folder; else the
    /// error's own description.
    static func unwritableFileReason(_ url: URL, error: any Error) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "cannot write: it is a folder; give a file name in it, such as "
                + quoted(url.standardizedFileURL.appendingPathComponent("nettap-output").path)
        }
        let folder = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            return "cannot write: no such folder \(quoted(folder.path))"
        }
        if !isDirectory.boolValue { return "cannot write: \(quoted(folder.path)) is not a folder" }
        if !FileManager.default.isWritableFile(atPath: folder.path) {
            return "cannot write: permission denied in the folder \(quoted(folder.path))"
        }
        // Foundation's own text ("The operation could not be completed…") says nothing; the POSIX error it wraps does.
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        let reason =
            underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : nil }
            ?? (error as NSError).localizedFailureReason ?? "the file system refused to write it"
        return "cannot write: \(reason)"
    }

    /// Whether two paths name the same file: the same file system object when both exist, else the same
    /// standardized path with symbolic links resolved.
    static func isSameFile(_ first: URL, _ second: URL) -> Bool {
        let manager = FileManager.default
        if let one = try? manager.attributesOfItem(atPath: first.path),
            let other = try? manager.attributesOfItem(atPath: second.path),
            let oneNumber = one[.systemFileNumber] as? NSNumber,
            let otherNumber = other[.systemFileNumber] as? NSNumber,
            let oneDevice = one[.systemNumber] as? NSNumber, let otherDevice = other[.systemNumber] as? NSNumber
        {
            return oneNumber == otherNumber && oneDevice == otherDevice
        }
        return first.standardizedFileURL.resolvingSymlinksInPath().path
            == second.standardizedFileURL.resolvingSymlinksInPath().path
    }
}
