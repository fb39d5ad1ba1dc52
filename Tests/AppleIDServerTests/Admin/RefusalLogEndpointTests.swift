import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

@Suite("Refusals are logged under their own endpoint")
struct RefusalLogEndpointTests {
    @Test("a malformed revoke or migration request is logged as such, not as a token refusal")
    func endpointNames() async throws {
        let (logger, lines) = RecordingLogHandler.logger()
        let server = try await TestServer.make(logger: logger)
        try await server.app.test(.router) { client in
            for path in ["/auth/revoke", "/auth/usermigrationinfo", "/auth/token"] {
                let duplicated = try await client.execute(
                    uri: path, method: .post, headers: Form.headers, body: ByteBuffer(string: "client_id=a&client_id=b"))
                #expect(duplicated.status == .badRequest)
            }
        }
        let refusals = lines.all.map(\.message).filter { $0.hasSuffix(" refused") }
        #expect(refusals == ["revoke refused", "usermigrationinfo refused", "token refused"])
    }
}
