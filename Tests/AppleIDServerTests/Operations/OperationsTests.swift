import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServerTestSupport
import Testing

/// Issue 13 (operations): health, Prometheus metrics, request IDs in the log, JSON log lines.
@Suite("Operations: health, metrics, request IDs")
struct OperationsTests {
    @Test("/health/live and /health/ready answer 200 when the store answers and a key is loaded")
    func health() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let live = try await client.execute(uri: "/health/live", method: .get)
            #expect(live.status == .ok)
            #expect(live.text == #"{"status":"live"}"#)
            let ready = try await client.execute(uri: "/health/ready", method: .get)
            #expect(ready.status == .ok)
            #expect(ready.text == #"{"status":"ready"}"#)
        }
    }

    @Test("/metrics needs the admin token and counts requests by route and status, answers by outcome, and the outbox")
    func metrics() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            #expect(try await client.execute(uri: "/metrics", method: .get).status == .unauthorized)
            let code = try await RP.code(client)
            let secret = try await server.clientSecret()
            #expect(try await RP.redeem(client, code: code, secret: secret).status == .ok)
            #expect(try await RP.redeem(client, code: code, secret: secret).status == .badRequest)
            let metrics = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(TestServer.adminToken)"])
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = metrics.text
            #expect(text.contains(#"siwa_oauth_answers_total{endpoint="token",outcome="ok"} 1"#))
            #expect(text.contains(#"siwa_oauth_answers_total{endpoint="token",outcome="invalid_grant"} 1"#))
            #expect(text.contains(#"siwa_http_requests_total{endpoint="/auth/token",method="POST",status="200"} 1"#))
            #expect(text.contains(#"siwa_http_requests_total{endpoint="/auth/token",method="POST",status="400"} 1"#))
            #expect(text.contains("siwa_http_request_duration_seconds_bucket{"))
            #expect(text.contains("siwa_outbox_pending_messages 0"))
            #expect(text.contains("siwa_signing_key_age_seconds "))
        }
    }

    @Test("every answer carries X-Request-ID, and the engine's log lines written meanwhile carry request_id")
    func requestIDs() async throws {
        let lines = RecordingLogHandler.Lines()
        let logger = Logger(label: "recorded") { _ in RecordingLogHandler(lines: lines, metadataProvider: RequestIdentity.metadataProvider) }
        let server = try await TestServer.make(logger: logger)
        try await server.app.test(.router) { client in
            let refused = try await RP.redeem(client, code: "c_unknown", secret: try await server.clientSecret())
            let requestID = try #require(refused.headers[.init("X-Request-ID")!])
            let refusal = try #require(lines.all.first { $0.message == "token refused" })
            #expect(refusal.metadata["request_id"] == requestID)
        }
    }

    @Test("--log-format json writes one object per line with the message and metadata")
    func jsonLines() throws {
        let written = RecordingLogHandler.Lines()
        var logger = Logger(label: "siwa") { label in JSONLogHandler(label: label, write: { written.append($0, [:]) }) }
        logger[metadataKey: "component"] = "test"
        logger.info("token refused", metadata: ["error": "invalid_grant"])
        let line = try #require(written.all.first?.message)
        #expect(line.hasSuffix("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(object["message"] == "token refused")
        #expect(object["level"] == "info")
        #expect(object["label"] == "siwa")
        #expect(object["error"] == "invalid_grant")
        #expect(object["component"] == "test")
        #expect(object["timestamp"]?.count == 24)
    }
}
