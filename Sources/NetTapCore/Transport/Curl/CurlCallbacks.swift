#if canImport(CNetTapCurl)
import CNetTapCurl
import Foundation
import FoundationNetworking

/// libcurl's callbacks for a transfer (header lines, body bytes, request body reads and rewinds), each handing
/// the bytes to its ``CurlExchange``; they run on the loop thread, inside `curl_multi_socket_action`.
enum CurlCallbacks {
    static func install(on handle: UnsafeMutableRawPointer, for exchange: CurlExchange) {
        let me = UnsafeRawPointer(Unmanaged.passUnretained(exchange).toOpaque())
        _ = nettap_easy_set_pointer(handle, CURLOPT_HEADERDATA, me)
        _ = nettap_easy_set_pointer(handle, CURLOPT_WRITEDATA, me)
        _ = nettap_easy_set_pointer(handle, CURLOPT_READDATA, me)
        _ = nettap_easy_set_pointer(handle, CURLOPT_SEEKDATA, me)
        _ = nettap_easy_set_data_callback(handle, CURLOPT_HEADERFUNCTION) { buffer, size, count, user in
            guard let buffer, let user else { return 0 }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: size * count)
            return CurlCallbacks.owner(user).receivedHeaderLine(bytes) ? size * count : 0
        }
        _ = nettap_easy_set_data_callback(handle, CURLOPT_WRITEFUNCTION) { buffer, size, count, user in
            guard let buffer, let user else { return 0 }
            return CurlCallbacks.owner(user).receivedBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
        }
        _ = nettap_easy_set_data_callback(handle, CURLOPT_READFUNCTION) { buffer, size, count, user in
            guard let buffer, let user else { return Int(CURL_READFUNC_ABORT) }
            return CurlCallbacks.owner(user).fillRequestBody(
                UnsafeMutableRawBufferPointer(start: buffer, count: size * count)
            )
        }
        // The debug callback shows the request header block as sent (the capture's request headers).
        _ = nettap_easy_set_long(handle, CURLOPT_VERBOSE, 1)
        _ = nettap_easy_set_pointer(handle, CURLOPT_DEBUGDATA, me)
        _ = nettap_easy_set_debug_callback(handle) { _, type, data, size, user in
            guard type == CURLINFO_HEADER_OUT, let data, let user else { return 0 }
            CurlCallbacks.owner(user).sentHeaderBlock(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
        _ = nettap_easy_set_seek_callback(handle) { user, offset, origin in
            guard let user, origin == SEEK_SET else { return CURL_SEEKFUNC_CANTSEEK }
            return CurlCallbacks.owner(user).seekRequestBody(to: Int(offset)) ? CURL_SEEKFUNC_OK : CURL_SEEKFUNC_FAIL
        }
    }

    private static func owner(_ user: UnsafeMutableRawPointer) -> CurlExchange {
        Unmanaged<CurlExchange>.fromOpaque(user).takeUnretainedValue()
    }
}

extension CurlExchange {
    /// One header line (with CRLF), or the empty line that ends a head.
    /// - Returns: `false` to abort the transfer, as the platform does for a head it cannot parse.
    func receivedHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
        touch()
        storeCookie(line)
        do {
            if try head.append(line) { try headEnded() }
            return true
        } catch {
            return false
        }
    }

    /// The request header block libcurl sent for the current hop.
    func sentHeaderBlock(_ block: UnsafeRawBufferPointer) {
        context.wireRequestHeaders = CurlWireFacts.requestHeaders(block)
    }

    /// Body bytes: relayed, kept (before a head), dropped (a redirect's body), or refused for now (paused).
    func receivedBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        touch()
        switch phase {
        case .streaming:
            if isPauseRequested {
                isReceivePaused = true
                idleDeadline = nil
                return Int(CURL_WRITEFUNC_PAUSE)
            }
            channel.send(Data(bytes))
        case .awaitingHead:
            earlyBody.append(Data(bytes))
        case .redirecting:
            break
        case .idle, .ended:
            return 0
        }
        return bytes.count
    }

    /// Copies the next request body bytes into libcurl's buffer (0 at the end).
    func fillRequestBody(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        touch()
        let data = currentBody.bytes
        guard let data, bodyOffset < data.count else { return 0 }
        let count = min(buffer.count, data.count - bodyOffset)
        let start = data.startIndex + bodyOffset
        data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: start..<(start + count))
        bodyOffset += count
        return count
    }

    /// Rewinds the request body (libcurl resends it on a new connection, or after a 100-continue refusal).
    func seekRequestBody(to offset: Int) -> Bool {
        let length = currentBody.bytes?.count ?? 0
        guard offset >= 0, offset <= length else { return false }
        bodyOffset = offset
        return true
    }

    /// Stores a `Set-Cookie` line's cookies into the session's jar, as the platform's header callback does
    /// (`_EasyHandle.setCookies(headerData:)`): the exact name `Set-Cookie` only, each line on its own, for the
    /// URL of the transfer, unless the session's accept policy is `never`.
    private func storeCookie(_ line: UnsafeRawBufferPointer) {
        guard line.count > 11, line[0] == UInt8(ascii: "S"), profile.cookieAcceptPolicy != .never,
            let storage = profile.cookieStorage, let url = request.url,
            let text = String(validating: line, as: UTF8.self)
        else { return }
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { return }
        guard parts[0].trimmingCharacters(in: .whitespacesAndNewlines) == "Set-Cookie" else { return }
        let value = parts[1].trimmingCharacters(in: .whitespacesAndNewlines)
        let cookies = SetCookieReader.cookies(in: value, for: url)
        guard !cookies.isEmpty else { return }
        storage.setCookies(cookies, for: url, mainDocumentURL: nil)
    }

    /// A whole head arrived: an interim 1xx is skipped, a redirect is remembered, a final head is delivered.
    private func headEnded() throws {
        let (version, statusCode, fields) = try head.parsed()
        head.reset()
        if (100...199).contains(statusCode) { return }
        guard let url = request.url,
            let platform = CurlResponseHead.platformResponse(
                url: url,
                version: version,
                statusCode: statusCode,
                fields: fields
            )
        else { throw CurlResponseHead.Malformed() }
        let location = platform.allHeaderFields["Location"] as? String
        if let suggested = CurlRedirect.suggestedRequest(statusCode: statusCode, location: location, from: request) {
            context.recordRedirect(
                RedirectHop(
                    method: request.httpMethod ?? "GET",
                    url: url,
                    statusCode: statusCode,
                    headers: HeaderFields(fields.map { HeaderFields.Field(name: $0.name, value: $0.value) }),
                    elapsedMilliseconds: context.elapsedMilliseconds
                )
            )
            phase = .redirecting(
                ForwardingExchange.nextHop(from: request, suggested: suggested, statusCode: statusCode)
            )
            return
        }
        context.markFirstByte()
        if let handle {
            context.wire = CurlWireFacts.connection(of: handle, isHTTPS: url.scheme?.lowercased() == "https")
        }
        deliver(HandlerResponse(platform: platform, version: version, fields: fields, channel: channel))
    }
}

extension HandlerResponse {
    /// A forwarded response: the platform response relayed as is, the fields kept in wire order for the capture.
    init(platform: HTTPURLResponse, version: String, fields: [(name: String, value: String)], channel: BodyChannel) {
        let length = platform.expectedContentLength
        self.init(
            statusCode: platform.statusCode,
            headers: HeaderFields(fields.map { HeaderFields.Field(name: $0.name, value: $0.value) }),
            url: platform.url,
            httpVersion: version,
            body: ResponseBody(channel: channel, expectedLength: length >= 0 ? length : nil)
        )
        origin = (platform, statusCode, headers, url)
    }
}
#endif
