import Foundation
import NetTapCore
import NetTapHAR

/// `Network.getResponseBody` and `Network.getRequestPostData`: a transaction's bodies as held (redacted like every
/// export), as text when their type is textual and the bytes are UTF-8, else base64 (the rule of HAR exports).
enum NetworkBodies {
    /// Chrome's error for an id it does not know.
    static var unknown: DevToolsEndpoint.Answer {
        .error(code: -32000, message: "No resource with given identifier found")
    }

    /// `{body, base64Encoded}` of a response.
    static func responseBody(_ params: [String: Any], in traffic: any InspectedTraffic) -> DevToolsEndpoint.Answer {
        guard let transaction = transaction(params, in: traffic) else { return unknown }
        guard let response = transaction.response else {
            return .error(code: -32000, message: "No data found for resource with given identifier")
        }
        if transaction.state == .pending || transaction.state == .receiving {
            return .error(code: -32000, message: "No data found for resource with given identifier")
        }
        let data = response.body?.data ?? Data()
        let (text, isBase64) = HARBodyCoding.encode(data, mimeType: response.headers["Content-Type"] ?? "")
        return .result(["body": text, "base64Encoded": isBase64])
    }

    /// `{postData, base64Encoded}` of a request.
    static func requestPostData(_ params: [String: Any], in traffic: any InspectedTraffic) -> DevToolsEndpoint.Answer {
        guard let transaction = transaction(params, in: traffic) else { return unknown }
        guard let body = transaction.request.body, !body.data.isEmpty else {
            return .error(code: -32000, message: "No post data available for the request")
        }
        let contentType = transaction.request.headers["Content-Type"] ?? ""
        let (text, isBase64) = HARBodyCoding.encode(body.data, mimeType: contentType)
        return .result(["postData": text, "base64Encoded": isBase64])
    }

    private static func transaction(_ params: [String: Any], in traffic: any InspectedTraffic) -> CapturedTransaction? {
        guard let text = params["requestId"] as? String, let id = UUID(uuidString: text) else { return nil }
        return traffic.transaction(id: id)
    }
}
