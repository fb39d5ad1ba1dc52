import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Apple ID settings: the two-factor switch and further e-mail addresses")
struct AppleIDSettingsTests {
    /// Turns two-factor off for Maria through the admin API, as a script would.
    static func turnOff(_ client: some TestClientProtocol) async throws {
        let changed = try await client.execute(
            uri: "/admin/users/maria@example.com", method: .patch, headers: AdminAccountTests.admin,
            body: ByteBuffer(string: #"{"two_factor_enabled":false}"#))
        let view = try AdminAccountTests.json(changed)
        #expect(view["two_factor_enabled"] as? Bool == false)
        #expect(view["current_two_factor_code"] == nil, "no code to show when there is no second step")
    }

    @Test("with two-factor off, the password leads straight to consent and signs the browser in")
    func authorizationWithoutSecondStep() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            try await Self.turnOff(client)
            let browser = Browser(client)
            let signIn = try await browser.get(WebFlowTests.authorizeURI())
            let action = try #require(HTML.formAction(signIn.text))
            let csrf = try #require(HTML.hiddenInputs(signIn.text)["csrf"])
            let wrong = try await browser.post(
                action, form: [("csrf", csrf), ("action", "sign-in"), ("apple_id", TestServer.maria.appleID), ("password", "wrong")])
            #expect(wrong.text.contains("Your Apple ID or password was incorrect."))
            #expect(browser.cookies["siwa_session"] == nil)
            let consent = try await browser.post(
                action,
                form: [("csrf", csrf), ("action", "sign-in"), ("apple_id", TestServer.maria.appleID), ("password", TestServer.maria.password)])
            #expect(consent.text.contains("Create an account for Juice"))
            #expect(!consent.text.contains("Two-Factor Authentication"))
            #expect(browser.cookies["siwa_session"] != nil)
            let result = try await browser.post(
                action, form: [("csrf", csrf), ("action", "approve"), ("first_name", "Maria"), ("last_name", "R."), ("email", "share")])
            #expect(HTML.hiddenInputs(result.text)["code"] != nil)
        }
    }

    @Test("with two-factor on (the default) a verification code is still required, and the account page asks for it")
    func defaultKeepsSecondStep() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let codeStep = try await AccountPages.signIn(browser)
            #expect(HTML.element(id: "development-code", in: codeStep.text) != nil)
            #expect(browser.cookies["siwa_account"] == nil)

            try await Self.turnOff(client)
            let direct = try await AccountPages.signIn(Browser(client))
            #expect(direct.status == .seeOther)
            #expect(direct.headers[.location] == "/account")
            #expect(direct.headers[.setCookie]?.contains("siwa_account=") == true)
        }
    }

    @Test("an Apple ID with two addresses: the consent page offers both, and the one chosen is what the app gets")
    func chooseSharedAddress() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let changed = try await client.execute(
                uri: "/admin/users/maria@example.com", method: .patch, headers: AdminAccountTests.admin,
                body: ByteBuffer(string: #"{"additional_emails":["maria@work.example.com"]}"#))
            #expect(try AdminAccountTests.json(changed)["additional_emails"] as? [String] == ["maria@work.example.com"])
            try await Self.turnOff(client)
            let browser = Browser(client)
            let signIn = try await browser.get(WebFlowTests.authorizeURI())
            let action = try #require(HTML.formAction(signIn.text))
            let csrf = try #require(HTML.hiddenInputs(signIn.text)["csrf"])
            let consent = try await browser.post(
                action,
                form: [("csrf", csrf), ("action", "sign-in"), ("apple_id", TestServer.maria.appleID), ("password", TestServer.maria.password)])
            #expect(
                consent.text.contains(
                    #"value="share" checked><span><strong>Share My Email</strong><span class="detail">\#(TestServer.maria.email)</span>"#))
            #expect(consent.text.contains(#"value="maria@work.example.com""#))
            let result = try await browser.post(
                action,
                form: [("csrf", csrf), ("action", "approve"), ("first_name", "Maria"), ("last_name", "R."), ("email", "maria@work.example.com")])
            let user = try AuthorizedUser(jsonString: try #require(HTML.hiddenInputs(result.text)["user"]))
            #expect(user.email == "maria@work.example.com")
        }
    }

    @Test("an address that is not the Apple ID's is never shared: the primary one is")
    func foreignAddressIgnored() async throws {
        let server = try await TestServer.make()
        guard
            case .answered(let answer) = try await server.provider.authorizeHeadless(
                AuthorizationRequest(
                    clientID: TestServer.servicesID.rawValue, redirectURI: TestServer.redirectURI, responseType: "code", responseMode: "form_post",
                    scope: "email"),
                appleID: TestServer.maria.appleID,
                choices: ConsentChoices(firstName: "M", lastName: "R", hideEmail: false, sharedEmail: "attacker@example.com"))
        else {
            Issue.record("no answer")
            return
        }
        #expect(try #require(answer.issued?.user).email == TestServer.maria.email)
    }
}
