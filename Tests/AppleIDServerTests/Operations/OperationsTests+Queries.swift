import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

extension OperationsTests {
    @Test("/metrics counts the outbox in the database: it reads as many rows with 30 pending messages as with none")
    func metricsCountsTheOutbox() async throws {
        try await StatementCounter.withSQLiteStore { store, counter in
            let server = try await TestServer.make(store: store)
            try await server.app.test(.router) { client in
                let headers: HTTPFields = [.authorization: "Bearer \(TestServer.adminToken)"]
                counter.reset()
                _ = try await client.execute(uri: "/metrics", method: .get, headers: headers)
                let rowsWhenEmpty = counter.rows
                try await ManyApps.queueMessages(1...30, to: store)
                counter.reset()
                let metrics = try await client.execute(uri: "/metrics", method: .get, headers: headers)
                #expect(metrics.text.contains("siwa_outbox_pending_messages 30"))
                #expect(counter.rows == rowsWhenEmpty, "no pending message: \(rowsWhenEmpty) rows read, 30: \(counter.rows)")
            }
        }
    }
}
