import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RewriteHandler {
    /// What reading a body up to the buffer limit gave.
    enum HeldBody {
        /// The whole body.
        case whole([UInt8])
        /// The body is longer than the limit: the chunks read so far (the rest is still in the body).
        case overLimit([Data])
    }

    /// Rewrites the body with the body rules whose matchers take `request`.
    ///
    /// A body of known length up to ``RewriteRules/bodyBufferLimit`` (or of unknown length, when a JSON rule
    /// applies, as long as it stays under the limit) is read whole before the head goes on, rewritten, and given
    /// its `Content-Length` (without `Content-Encoding`: the bytes are the decoded ones); any other body streams
    /// through the text rules, without `Content-Length` unless they keep the length, while JSON rules leave it
    /// alone. A response that may have no content (`HEAD`, 1xx, 204, 304) is left as it is, and so is a partial one
    /// (206), whose `Content-Range` a new length would contradict.
    func rewriteBody(
        of response: HandlerResponse,
        for request: URLRequest,
        method: String,
        context: TransactionContext
    ) async throws -> HandlerResponse {
        let applying = rules.responseBody.filter { $0.matcher.matches(request) }
        guard !applying.isEmpty, !HandlerAnswers.hasNoContent(statusCode: response.statusCode, method: method) else {
            return response
        }
        if response.statusCode == 206 {
            // A changed length would no longer match Content-Range: a part of a body is left as it is.
            var skipped = BodyRewrite(rules: applying)
            skipped.skipAll("a partial response (206) is left alone")
            Self.report(skipped, in: context)
            return response
        }
        let limit = rules.bodyBufferLimit
        let overLimit = "the body is over the \(limit)-byte limit JSON rules read"
        let holdsWhole =
            response.body.expectedLength.map { $0 <= Int64(limit) } ?? applying.contains(where: \.needsWholeBody)
        guard holdsWhole else {
            return streamed(response, rewrite: BodyRewrite(rules: applying), after: [], skipping: overLimit, context)
        }
        switch try await Self.hold(response.body, upTo: limit) {
        case .whole(let bytes):
            return whole(response, bytes: bytes, rewrite: BodyRewrite(rules: applying), context: context)
        case .overLimit(let read):
            return streamed(response, rewrite: BodyRewrite(rules: applying), after: read, skipping: overLimit, context)
        }
    }

    /// The response with its whole body rewritten and its `Content-Length` set when the body changed.
    private func whole(
        _ response: HandlerResponse,
        bytes: [UInt8],
        rewrite: BodyRewrite,
        context: TransactionContext
    ) -> HandlerResponse {
        var rewrite = rewrite
        let rewritten = rewrite.rewriteWhole(bytes)
        var result = response
        if rewrite.changedAnything {
            result.headers.remove(name: "Content-Encoding")
            result.headers.set(name: "Content-Length", value: "\(rewritten.count)")
        }
        result.body = .data(Data(rewritten))
        Self.report(rewrite, in: context)
        return result
    }

    /// The response with its body streamed through the text rules, after the chunks already read.
    private func streamed(
        _ response: HandlerResponse,
        rewrite: BodyRewrite,
        after read: [Data],
        skipping reason: String,
        _ context: TransactionContext
    ) -> HandlerResponse {
        var result = response
        let keepsLength = rewrite.rules.allSatisfy { $0.needsWholeBody || $0.preservesLength }
        if !keepsLength { result.headers.remove(name: "Content-Length") }
        let upstream = response.body
        result.body = ResponseBody.produced(expectedLength: keepsLength ? upstream.expectedLength : nil) { output in
            var rewrite = rewrite
            rewrite.startStreaming(skipping: reason)
            do {
                for chunk in read { try await Self.write(rewrite.feed(Array(chunk)), to: output) }
                for try await chunk in upstream { try await Self.write(rewrite.feed(Array(chunk)), to: output) }
                try await Self.write(rewrite.finish(), to: output)
            } catch {
                upstream.channel.cancel()
                rewrite.noteStreamed()
                Self.report(rewrite, in: context)
                throw error
            }
            Self.report(rewrite, in: context)
        }
        return result
    }

    /// Reads a body until it ends or holds more than `limit` bytes.
    static func hold(_ body: ResponseBody, upTo limit: Int) async throws -> HeldBody {
        var chunks: [Data] = []
        var total = 0
        for try await chunk in body {
            chunks.append(chunk)
            total += chunk.count
            if total > limit { return .overLimit(chunks) }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total)
        for chunk in chunks { bytes += chunk }
        return .whole(bytes)
    }

    /// Writes bytes once the app has room for them.
    private static func write(_ bytes: [UInt8], to output: GatedBodyWriter) async throws {
        guard !bytes.isEmpty else { return }
        try Task.checkCancellation()
        await output.gate.waitUntilOpen()
        try Task.checkCancellation()
        output.writer.write(Data(bytes))
    }

    /// Annotates what the body rules did.
    private static func report(_ rewrite: BodyRewrite, in context: TransactionContext) {
        context.annotate(responseBodyAnnotation, rewrite.annotation)
        for label in rewrite.changedLabels { note(rule: "response body \(label)", in: context) }
    }
}
