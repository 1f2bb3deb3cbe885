import Foundation
import NetTapCore
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Download tasks pass through untouched")
struct DownloadTaskTests {
    /// A custom protocol breaks download tasks on Linux (no file location); NetTap hands them to the platform's
    /// own HTTP protocol for the same task, and records them as `passthrough`.
    @Test("a download task through NetTap gets the same file as direct and is captured as passthrough")
    func download() async throws {
        let server = try await HTTPBin.shared()
        let url = server.url("/bytes/50000?seed=21")
        let interceptor = NetTapInterceptor()
        let session = interceptor.makeSession()
        let (viaNetTap, response) = try await session.download(from: url)
        let nettapBytes = try Data(contentsOf: viaNetTap)
        let (viaDirect, _) = try await URLSession(configuration: .default).download(from: url)
        let directBytes = try Data(contentsOf: viaDirect)
        // The async API leaves the file to the caller (FoundationNetworking does not delete it).
        try? FileManager.default.removeItem(at: viaNetTap)
        try? FileManager.default.removeItem(at: viaDirect)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(nettapBytes.count == 50_000)
        #expect(nettapBytes == directBytes)
        let transaction = await interceptor.captureLog.waitForFinished { $0.request.url == url }
        #expect(transaction.answeredBy == CapturedTransaction.answeredByPassthrough)
        #expect(transaction.response?.statusCode == 200)
        #expect(transaction.response?.body?.totalByteCount == 50_000)
        #expect(transaction.annotations["passthrough"]?.contains("download task") == true)
    }
}
