import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import AppleIDStore
import Foundation
import HummingbirdTesting
import ServerTestSupport
import Testing

@testable import AppleIDConsole

/// A read of the request log flushes the buffer first, so that the log shows every request answered
/// before it. Another flush (`siwa serve`'s timer) may have taken the entries a moment earlier and be
/// writing them still: the read must wait for that write, or the request is missing (`siwa check`'s
/// deletion check, under CI's load, found an app's `/auth/revoke` missing so).
@Suite("The request log: a read waits for the batch another flush is still writing")
struct RequestLogFlushTests {
    @Test("the log read while the timer's batch is being written shows that batch")
    func readWaitsForTheBatchBeingWritten() async throws {
        try await SQLiteTestStore.with(wrapping: StatementHolder.init) { store, holder in
            let server = try await TestServer.make(store: store)
            try await server.app.test(.router) { client in
                let query = Form.encode([
                    ("client_id", TestServer.servicesID.rawValue), ("redirect_uri", TestServer.redirectURI), ("response_type", "code"),
                    ("state", "s"),
                ])
                _ = try await client.execute(uri: "/auth/authorize?" + query, method: .get)
            }
            let requestLog = try #require(server.provider.requestRecorder as? StoredRequestLog)
            holder.hold("INSERT INTO \"request_log\"")
            let timer = Task { await server.provider.flushRequestLog() }
            await holder.waitUntilHeld()
            let read = Task { try await server.provider.requestLog(clientID: TestServer.servicesID, teamID: nil) }
            // Until the read waits for the batch, or reads the log without it (as it did before).
            while requestLog.buffer.waitingFlushes == 0 && !holder.hasSeen("FROM \"request_log\"") { await Task.yield() }
            holder.release()
            await timer.value
            #expect(try await read.value.proven.map(\.outcome) == ["ok"])
        }
    }
}
