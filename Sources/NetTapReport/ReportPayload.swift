import Foundation
import NetTapCore
import NetTapHAR

/// The JSON an ``HTMLReport`` embeds for its script: one row per transaction for the table and, in the same
/// order, the details the detail pane shows.
struct ReportPayload: Encodable {
    struct Meta: Encodable {
        var title: String
        var redacted: Bool
        var generated: Double
        /// Milliseconds since 1970 of the earliest start.
        var origin: Double
        var total: Int
    }

    /// What the table shows of one transaction.
    struct Row: Encodable {
        var id: String
        /// Milliseconds since 1970 of the start.
        var start: Double
        var method: String
        var url: String
        var host: String
        /// The status, 0 without a response.
        var status: Int
        var state: String
        var source: String
        var duration: Double?
        var sent: Double?
        var firstByte: Double?
        var bytesOut: Int64
        var bytesIn: Int64
        var findings: Int
        var error: String?
        var mime: String?
        /// The GraphQL operation, such as `mutation AddItem`, for a GraphQL request.
        var graphql: String?
    }

    /// A body as the detail pane shows it.
    struct Body: Encodable {
        /// `text`, `json`, `image` or `binary`.
        var kind: String
        var mime: String?
        /// The text, for `text` and `json`.
        var text: String?
        /// Base64 of the bytes embedded, for `image` and `binary`.
        var base64: String?
        /// The body's full size.
        var size: Int64
        /// The bytes NetTap kept.
        var kept: Int
        /// The bytes embedded here.
        var shown: Int
    }

    struct Hop: Encodable {
        var method: String
        var url: String
        var status: Int
        var source: String
    }

    struct FindingItem: Encodable {
        var severity: String
        var rule: String
        var location: String?
        var message: String
    }

    /// What the detail pane shows of one transaction.
    struct Detail: Encodable {
        var requestHeaders: [[String]]
        var responseHeaders: [[String]]?
        var requestBody: Body?
        var responseBody: Body?
        var httpVersion: String?
        var redirects: [Hop]
        var findings: [FindingItem]
        var curl: String
        var wire: Wire?
        /// What rewrite rules changed: `[label, value]` pairs of the transaction's `rewrite.` annotations, or `nil`.
        var rewrite: [[String]]?
        /// The handlers' other annotations (stub, scenario, state, …) as name and value, by name.
        var notes: [[String]]
    }

    var meta: Meta
    /// The transactions, already redacted as the report says.
    var transactions: [CapturedTransaction]
    var bodyByteLimit: Int

    /// The most bytes of a binary body embedded for its hex dump.
    static let hexByteLimit = 4096
    /// The most bytes of an image embedded as a `data:` URL.
    static let imageByteLimit = 1024 * 1024
    /// How many transactions are encoded at a time (progress is reported per chunk).
    static let chunkSize = 500

    init(transactions: [CapturedTransaction], title: String, isRedacted: Bool, generatedAt: Date, bodyByteLimit: Int) {
        let origin = transactions.map(\.timings.startDate).min() ?? generatedAt
        meta = Meta(
            title: title,
            redacted: isRedacted,
            generated: generatedAt.timeIntervalSince1970 * 1000,
            origin: origin.timeIntervalSince1970 * 1000,
            total: transactions.count
        )
        self.transactions = transactions
        self.bodyByteLimit = bodyByteLimit
    }

    private enum CodingKeys: String, CodingKey {
        case meta, rows, details
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(meta, forKey: .meta)
        try container.encode(transactions.map(Self.row), forKey: .rows)
        try container.encode(transactions.map { Self.detail($0, bodyByteLimit: bodyByteLimit) }, forKey: .details)
    }

    /// The payload as JSON that can sit inside `<script>` (see `HTMLText.scriptSafe`): `{"meta":…,"rows":[…],
    /// "details":[…]}`, encoded a chunk of transactions at a time, calling `progress` with the fraction done.
    func scriptSafeJSON(progress: @escaping @Sendable (Double) -> Void = { _ in }) -> String {
        let transactions = transactions
        let bodyByteLimit = bodyByteLimit
        let chunkCount = (transactions.count + Self.chunkSize - 1) / Self.chunkSize
        // Chunks are encoded on all cores (a large part of the rendering time), then joined in order.
        let results = ChunkResults<(rows: Data, details: Data)>(count: chunkCount)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { index in
            let chunk = transactions[index * Self.chunkSize..<min(transactions.count, (index + 1) * Self.chunkSize)]
            let rows = Self.elements(chunk.map(Self.row))
            let details = Self.elements(chunk.map { Self.detail($0, bodyByteLimit: bodyByteLimit) })
            let done = results.set(index, (rows, details))
            progress(Double(done) / Double(max(1, chunkCount)))
        }
        let parts = results.values()
        var json = Data("{\"meta\":".utf8)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        json.append(HTMLText.scriptSafe((try? encoder.encode(meta)) ?? Data("null".utf8)))
        json.append(contentsOf: Array(",\"rows\":[".utf8))
        for (index, part) in parts.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(part.rows)
        }
        json.append(contentsOf: Array("],\"details\":[".utf8))
        for (index, part) in parts.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(part.details)
        }
        json.append(contentsOf: Array("]}".utf8))
        progress(1)
        return String(decoding: json, as: UTF8.self)
    }

    /// The elements of an array encoded as script-safe JSON, without its brackets.
    private static func elements<Element: Encodable>(_ value: [Element]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = HTMLText.scriptSafe((try? encoder.encode(value)) ?? Data("null".utf8))
        return data.count >= 2 ? Data(data.dropFirst().dropLast()) : Data()
    }

    private static func row(_ transaction: CapturedTransaction) -> Row {
        Row(
            id: transaction.id.uuidString.lowercased(),
            start: transaction.timings.startDate.timeIntervalSince1970 * 1000,
            method: transaction.request.method,
            url: transaction.request.url.absoluteString,
            host: FlowStatistics.host(of: transaction.request.url),
            status: transaction.response?.statusCode ?? 0,
            state: transaction.state.rawValue,
            source: transaction.answeredBy,
            duration: transaction.timings.end,
            sent: transaction.timings.requestSent,
            firstByte: transaction.timings.firstByte,
            bytesOut: transaction.request.body?.totalByteCount ?? 0,
            bytesIn: transaction.response?.body?.totalByteCount ?? 0,
            findings: transaction.findings.count,
            error: transaction.error?.message,
            mime: transaction.response?.headers["Content-Type"],
            graphql: GraphQLRequest.label(of: transaction).map(GraphQLRequest.text(of:))
        )
    }

    private static func detail(_ transaction: CapturedTransaction, bodyByteLimit: Int) -> Detail {
        let response = transaction.response
        return Detail(
            requestHeaders: transaction.request.headers.map { [$0.name, $0.value] },
            responseHeaders: response.map { $0.headers.map { [$0.name, $0.value] } },
            requestBody: transaction.request.body.flatMap {
                body($0, contentType: transaction.request.headers["Content-Type"], limit: bodyByteLimit)
            },
            responseBody: response?.body.flatMap {
                body($0, contentType: response?.headers["Content-Type"], limit: bodyByteLimit)
            },
            httpVersion: response?.httpVersion,
            redirects: transaction.redirects.map {
                Hop(method: $0.method, url: $0.url.absoluteString, status: $0.statusCode, source: $0.answeredBy)
            },
            findings: transaction.findings.map {
                FindingItem(severity: $0.severity.rawValue, rule: $0.rule, location: $0.location, message: $0.message)
            },
            // The transaction is already redacted as the report says (or deliberately not): redacting the
            // command again would only cost time.
            curl: CURLCommand.make(for: transaction.request, redactor: .disabled),
            wire: transaction.wire.map(Wire.init),
            rewrite: rewriteFacts(of: transaction),
            notes: transaction.annotations.filter { !$0.key.hasPrefix("graphql.") && !$0.key.hasPrefix("rewrite.") }
                .sorted { $0.key < $1.key }.map { [$0.key, $0.value] }
        )
    }

    /// Classifies a body: an image (by its `Content-Type`), text or JSON (valid UTF-8 without NUL), else binary.
    static func body(_ body: CapturedBody, contentType: String?, limit: Int) -> Body? {
        guard body.totalByteCount > 0 || !body.data.isEmpty else { return nil }
        let mime = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
            .map { $0.lowercased() }
        let data = body.data
        func binary(_ kind: String, limit: Int) -> Body {
            let shown = data.prefix(limit)
            return Body(
                kind: kind,
                mime: mime,
                base64: shown.base64EncodedString(),
                size: body.totalByteCount,
                kept: data.count,
                shown: shown.count
            )
        }
        if let mime, mime.hasPrefix("image/"), data.count <= imageByteLimit, !body.isTruncated {
            return binary("image", limit: imageByteLimit)
        }
        let shown = data.prefix(max(0, limit))
        if !shown.contains(0), let text = Self.text(shown, isCut: shown.count < data.count || body.isTruncated) {
            let isJSON =
                mime.map { $0.contains("json") }
                ?? text.drop(while: \.isWhitespace).first.map { $0 == "{" || $0 == "[" } ?? false
            return Body(
                kind: isJSON ? "json" : "text",
                mime: mime,
                text: text,
                size: body.totalByteCount,
                kept: data.count,
                shown: shown.count
            )
        }
        return binary("binary", limit: hexByteLimit)
    }

    /// Decodes UTF-8; a prefix cut inside a character loses that character's first bytes only.
    private static func text(_ data: Data, isCut: Bool) -> String? {
        if let text = String(data: data, encoding: .utf8) { return text }
        guard isCut else { return nil }
        for drop in 1...3 where data.count > drop {
            if let text = String(data: data.dropLast(drop), encoding: .utf8) { return text }
        }
        return nil
    }
}
