import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds requests for matcher tests.
func request(
    _ url: String,
    method: String = "GET",
    headers: [String: String] = [:],
    body: String? = nil
) -> URLRequest {
    var request = URLRequest(url: URL(string: url) ?? URL(fileURLWithPath: "/invalid"))
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body.map { Data($0.utf8) }
    return request
}
