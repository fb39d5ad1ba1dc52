import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Testing

@Suite("Console Notifications page: its delivery log in a fixed number of statements")
struct ConsoleNotificationQueryTests {
    @Test("a team's delivery log reads as many statements for 20 messages as for 1, each with its attempts")
    func deliveriesStatementsAreBounded() async throws {
        try await StatementCounter.withSQLiteStore { store, counter in
            let server = try await TestServer.make(store: store)
            let console = server.provider.console(team: TestServer.teamID)
            try await ManyApps.queueMessages(1...1, to: store)
            counter.reset()
            _ = try await console.deliveries(groupID: TestServer.bundleID)
            let statementsForOne = counter.statements
            try await ManyApps.queueMessages(2...20, to: store)
            counter.reset()
            let log = try await console.deliveries(groupID: TestServer.bundleID)
            #expect(log.count == 20)
            #expect(log.allSatisfy { $0.1.count == 1 })
            #expect(counter.statements == statementsForOne, "1 message: \(statementsForOne) statements, 20: \(counter.statements)")
        }
    }
}
