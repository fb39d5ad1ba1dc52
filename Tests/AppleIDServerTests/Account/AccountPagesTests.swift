import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Account pages: the Apple ID user's own actions")
struct AccountPagesTests {
    @Test("sign in, turn Hide My Email forwarding off, stop using the app, delete the Apple ID: each sends its event")
    func accountActions() async throws {
        let (server, account, relay) = try await TestServer.authorized()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let start = try await browser.get("/account")
            #expect(start.text.contains("Manage your Apple ID"))
            let wrong = try await AccountPages.signIn(browser, password: "nope")
            #expect(wrong.status == .unauthorized)
            let codeStep = try await AccountPages.signIn(browser)
            let code = try #require(HTML.element(id: "development-code", in: codeStep.text))
            let bad = try await AccountPages.verify(browser, codePage: codeStep, code: "000000" == code ? "111111" : "000000")
            #expect(bad.status == .unauthorized)
            let verified = try await AccountPages.verify(browser, codePage: codeStep, code: code)
            #expect(verified.status == .seeOther)

            let page = try await browser.get("/account")
            #expect(page.text.contains("Juice"))
            #expect(page.text.contains(relay))
            let csrf = try #require(HTML.hiddenInputs(page.text)["csrf"])

            let off = try await browser.post(
                "/account/relay", form: [("csrf", csrf), ("team_id", TestServer.teamID.rawValue), ("forwarding", "off")])
            #expect(HTML.element(id: "message", in: off.text)?.hasPrefix("Forwarding is off") == true)
            #expect(try await server.teamIdentity(of: account)?.relayForwardingEnabled == false)

            let forged = try await browser.post("/account/stop-using", form: [("csrf", "forged"), ("group_id", TestServer.bundleID.rawValue)])
            #expect(forged.status == .badRequest)
            #expect(try await server.consent(of: account) != nil)
            let stopped = try await browser.post("/account/stop-using", form: [("csrf", csrf), ("group_id", TestServer.bundleID.rawValue)])
            #expect(stopped.text.contains("No app uses your Apple ID."))

            let unconfirmed = try await browser.post("/account/delete", form: [("csrf", csrf), ("confirm", "yes")])
            #expect(HTML.element(id: "message", in: unconfirmed.text) == "Type DELETE to confirm.")
            let deleted = try await browser.post("/account/delete", form: [("csrf", csrf), ("confirm", "DELETE")])
            #expect(deleted.text.contains("Your Apple ID was deleted."))
            let afterwards = try await browser.get("/account")
            #expect(afterwards.text.contains("Manage your Apple ID"))
            let again = try await AccountPages.signIn(browser)
            #expect(again.status == .unauthorized)
        }
        let types = try await server.outbox().sorted { $0.createdAt < $1.createdAt }.map(\.event.type)
        #expect(Set(types) == [.emailDisabled, .consentRevoked])
        #expect(types.count == 2, "the deletion has no app left to tell after Stop using")
    }

    @Test("deleting an Apple ID that apps still use tells each of them")
    func deleteTellsApps() async throws {
        let (server, _, _) = try await TestServer.authorized()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let codeStep = try await AccountPages.signIn(browser)
            _ = try await AccountPages.verify(
                browser, codePage: codeStep, code: try #require(HTML.element(id: "development-code", in: codeStep.text)))
            let csrf = try #require(HTML.hiddenInputs(try await browser.get("/account").text)["csrf"])
            _ = try await browser.post("/account/delete", form: [("csrf", csrf), ("confirm", "DELETE")])
        }
        let events = try await server.deliverAndVerify().flatMap(\.events)
        #expect(events.map(\.type) == [.accountDelete])
    }
}
