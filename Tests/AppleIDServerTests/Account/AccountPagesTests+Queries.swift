import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

extension AccountPagesTests {
    @Test("the account page reads as many statements for an Apple ID that 21 apps use as for one that 1 app uses")
    func accountPageStatementsAreBounded() async throws {
        try await StatementCounter.withSQLiteStore { store, counter in
            let server = try await TestServer.make(store: store)
            let account = try #require(try await server.provider.lookUpAccount(appleID: TestServer.maria.appleID))
            try await ManyApps.add(1...1, accountID: account.id, to: store)
            try await server.app.test(.router) { client in
                let browser = Browser(client)
                let codeStep = try await AccountPages.signIn(browser)
                let code = try #require(HTML.element(id: "development-code", in: codeStep.text))
                #expect(try await AccountPages.verify(browser, codePage: codeStep, code: code).status == .seeOther)
                counter.reset()
                let few = try await browser.get("/account")
                let statementsForOne = counter.statements
                try await ManyApps.add(2...21, accountID: account.id, to: store)
                counter.reset()
                let many = try await browser.get("/account")
                #expect(few.text.contains("App 1") && many.text.contains("App 21") && many.text.contains("many21@privaterelay.example.com"))
                #expect(counter.statements == statementsForOne, "1 app: \(statementsForOne) statements, 21 apps: \(counter.statements)")
            }
        }
    }
}
