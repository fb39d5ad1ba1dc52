import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import HummingbirdTesting
import ServerTestSupport
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

@Suite("Console Notifications page: a read model in a fixed number of statements")
struct ConsoleNotificationPageQueryTests {
    @Test("the page reads as many statements for 20 primary App IDs as for 1, each with its delivery log")
    func pageStatementsAreBounded() async throws {
        try await StatementCounter.withSQLiteStore { store, counter in
            let server = try await TestServer.make(store: store)
            try await ConsolePages.registerDeveloper(server)
            try await ManyApps.queueMessages(1...1, to: store)
            try await server.app.test(.router) { client in
                let browser = Browser(client)
                _ = try await ConsolePages.signIn(browser)
                counter.reset()
                let one = try await browser.get("/console/notifications")
                let statementsForOne = counter.statements
                #expect(one.text.contains("id=\"deliveries-\(TestServer.bundleID.rawValue)\""))
                for number in 2...20 {
                    let groupID = ClientID(rawValue: "com.example.juice.app\(number)")
                    _ = try await server.provider.createAppID(teamID: TestServer.teamID, bundleID: groupID.rawValue, description: "App \(number)")
                }
                counter.reset()
                let twenty = try await browser.get("/console/notifications")
                #expect(twenty.text.contains("id=\"endpoint-com.example.juice.app20\""))
                #expect(twenty.text.contains("id=\"deliveries-\(TestServer.bundleID.rawValue)\""))
                #expect(counter.statements == statementsForOne, "1 group: \(statementsForOne) statements, 20: \(counter.statements)")
            }
        }
    }
}
