import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// What the admin API's delivery log of lifecycle notifications costs the store.
@Suite("Account lifecycle: the delivery log's statements")
struct LifecycleNotificationQueryTests {
    @Test("the delivery log reads as many statements for 20 messages as for 1, each with its attempts")
    func deliveryLogStatementsAreBounded() async throws {
        try await StatementCounter.withSQLiteStore { store, counter in
            let server = try await TestServer.make(store: store)
            try await server.app.test(.router) { client in
                try await ManyApps.queueMessages(1...1, to: store)
                counter.reset()
                _ = try await client.execute(uri: "/admin/deliveries", method: .get, headers: RP.adminHeaders)
                let statementsForOne = counter.statements
                try await ManyApps.queueMessages(2...20, to: store)
                counter.reset()
                let log = try await client.execute(uri: "/admin/deliveries", method: .get, headers: RP.adminHeaders)
                let entries = try #require(try JSONSerialization.jsonObject(with: Data(buffer: log.body)) as? [String: [[String: Any]]])
                #expect(entries["deliveries"]?.count == 20)
                #expect(entries["deliveries"]?.allSatisfy { ($0["attempts"] as? [Any])?.count == 1 } == true)
                #expect(counter.statements == statementsForOne, "1 message: \(statementsForOne) statements, 20: \(counter.statements)")
            }
        }
    }
}
