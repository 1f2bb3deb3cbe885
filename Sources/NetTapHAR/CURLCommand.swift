import Foundation
import NetTapCore

/// Builds a `curl` command line that repeats a captured request, for pasting into a POSIX shell.
///
/// ```
/// curl 'https://api.example.com/items?q=a%20b' \
///   -X POST \
///   -H 'Content-Type: application/json' \
///   -H 'Authorization: Bearer [redacted]' \
///   --data-binary '{"name":"it'\''s"}'
/// ```
///
/// Every argument is single-quoted; a `'` inside becomes `'\''`, so spaces, newlines, `$`, backticks and
/// Unicode pass through unchanged. `-X` appears for methods other than GET and for a GET with a body
/// (`--head` for HEAD). `--compressed` appears when the request has `Accept-Encoding`. `--globoff` appears
/// when the URL holds `[`, `]`, `{` or `}`, which curl would otherwise expand.
///
/// Bodies go through `--data-binary`. UTF-8 text is given inline. Any other body (binary, or holding NUL,
/// which no shell argument can carry), and text starting with `@` (which curl would read as a file name),
/// is sent through standard input instead, so the command stays one self-contained line:
/// `printf '%s' 'AAEC/w==' | base64 --decode | curl … --data-binary @-` (`base64 --decode` exists in GNU
/// coreutils and macOS). No comment line is emitted, because interactive zsh does not accept comments.
///
/// A body NetTap kept only in part (`CapturedBody.isTruncated`) is sent as kept, never silently: the command
/// starts with a no-op `:` command whose quoted argument says so, which sh, bash and zsh all run and ignore, and
/// a captured `Content-Length` is left out, so curl announces the size it really sends instead of waiting for
/// bytes it does not have:
///
/// ```
/// : 'NetTap: request body truncated to 1048576 of 2000000 bytes; this command sends only those'; curl …
/// ```
///
/// Secrets are redacted by default (`Redactor.default`, ``make(for:redactor:)-(CapturedRequest,_)``): credentials headers keep
/// their scheme (`Authorization: Bearer [redacted]`), cookies their names, the URL and a JSON or form body
/// their structure, with `[redacted]` (`%5Bredacted%5D` in a query or form) where a value was, so a shared
/// command leaks no credentials and says where something was removed. When redaction changed the body, a
/// captured `Content-Length` is left out, so curl sends the right size. `Redactor.disabled` gives the command
/// exactly as captured, secrets included.
public enum CURLCommand {
    /// Builds the command.
    ///
    /// - Parameters:
    ///   - request: The request to repeat.
    ///   - redactor: What is redacted (`Redactor.redact(request:)`); `Redactor.default` by
    ///     default, `Redactor.disabled` for the raw command with its secrets.
    /// - Returns: A shell command, one option per line joined with ` \` line continuations; prefixed with a
    ///   `: '…';` note when the body was truncated.
    public static func make(for request: CapturedRequest, redactor: Redactor = .default) -> String {
        let original = request
        let request = redactor.redact(request: original).value
        let bodyChanged = request.body?.data != original.body?.data
        let url = request.url.absoluteString
        var options: [String] = []
        let method = request.method.uppercased()
        if method == "HEAD" && request.body == nil {
            options.append("--head")
        } else if method != "GET" || request.body != nil {
            let isToken = !request.method.isEmpty && request.method.allSatisfy { $0.isASCII && $0.isLetter }
            options.append("-X \(isToken ? request.method : quote(request.method))")
        }
        if url.contains(where: { "[]{}".contains($0) }) {
            options.append("--globoff")
        }
        let isTruncated = request.body?.isTruncated ?? false
        let dropsLength = isTruncated || bodyChanged
        for field in request.headers where !(dropsLength && field.name.lowercased() == "content-length") {
            let value = field.value
            // curl removes a header given as `Name:`; `Name;` sends it with an empty value.
            options.append("-H \(quote(value.isEmpty ? "\(field.name);" : "\(field.name): \(value)"))")
        }
        if request.headers.contains(name: "Accept-Encoding") {
            options.append("--compressed")
        }
        var pipeline = ""
        if let body = request.body, body.isTruncated {
            let note =
                "NetTap: request body truncated to \(body.data.count) of \(body.totalByteCount) bytes; "
                + "this command sends only those"
            pipeline = ": \(quote(note)); "
        }
        if let body = request.body {
            if let text = inlineText(body.data) {
                options.append("--data-binary \(quote(text))")
            } else {
                pipeline += "printf '%s' \(quote(body.data.base64EncodedString())) | base64 --decode | "
                options.append("--data-binary @-")
            }
        }
        return ([pipeline + "curl \(quote(url))"] + options).joined(separator: " \\\n  ")
    }

    /// Builds the command that repeats a transaction's request, redacted knowing the whole transaction.
    ///
    /// Unlike ``make(for:redactor:)-(CapturedRequest,_)`` with the request alone, this also removes copies of secrets that only the
    /// response revealed (a value the server set as a cookie, sent in the request under another name).
    ///
    /// - Parameters:
    ///   - transaction: The transaction whose request to repeat.
    ///   - redactor: What is redacted (`Redactor.redact(transaction:)`); `Redactor.default` by default,
    ///     `Redactor.disabled` for the raw command.
    /// - Returns: As ``make(for:redactor:)-(CapturedRequest,_)``.
    public static func make(for transaction: CapturedTransaction, redactor: Redactor = .default) -> String {
        make(for: redactor.redact(transaction: transaction).value.request, redactor: redactor)
    }

    /// Builds the commands that repeat the requests of one capture or HAR document, redacted knowing all of it.
    ///
    /// Each is ``make(for:redactor:)-(CapturedTransaction,_)``, and a value redacted in any transaction is also removed
    /// from the others' commands (`Redactor.redact(transactions:)`): a session cookie one response set, sent
    /// later in a query item or a header no rule names.
    ///
    /// - Parameters:
    ///   - transactions: The transactions, in any order.
    ///   - redactor: What is redacted; `Redactor.default` by default, `Redactor.disabled` for the raw commands.
    /// - Returns: One command per transaction, in the same order.
    public static func make(for transactions: [CapturedTransaction], redactor: Redactor = .default) -> [String] {
        redactor.redact(transactions: transactions).map { make(for: $0.value.request, redactor: redactor) }
    }

    /// Single-quotes a word for a POSIX shell: `it's` becomes `'it'\''s'`.
    ///
    /// - Parameter word: Any text.
    /// - Returns: The quoted word.
    public static func quote(_ word: String) -> String {
        guard word.utf8.contains(UInt8(ascii: "'")) else { return "'" + word + "'" }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The body as inline text, or `nil` when it must go through standard input.
    private static func inlineText(_ data: Data) -> String? {
        guard !data.contains(0), let text = String(data: data, encoding: .utf8), !text.hasPrefix("@") else {
            return nil
        }
        return text
    }
}
