import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

extension ConsentApprovalTests {
    @Test("one default for the consent page, the admin API's web and native approvals: the account's name, the real e-mail")
    func consentDefaultsAgree() async throws {
        let server = try await TestServer.make()
        let maria = try #require(try await server.provider.activeAccount(appleID: TestServer.maria.appleID))
        let robin = try #require(try await server.provider.activeAccount(appleID: "robin@example.com"))
        try await server.app.test(.router) { client in
            // The consent page preselects the engine's default.
            let browser = Browser(client)
            let signIn = try await browser.get(WebFlowTests.authorizeURI())
            let action = try #require(HTML.formAction(signIn.text))
            let twoFactor = try await browser.post(
                action,
                form: [
                    ("csrf", HTML.hiddenInputs(signIn.text)["csrf"] ?? ""), ("action", "sign-in"), ("apple_id", TestServer.maria.appleID),
                    ("password", TestServer.maria.password),
                ])
            let code = try #require(HTML.element(id: "development-code", in: twoFactor.text))
            let consent = try await browser.post(
                action, form: [("csrf", HTML.hiddenInputs(twoFactor.text)["csrf"] ?? ""), ("action", "verify"), ("code", code)])
            let preselected = ConsentChoices.headlessDefault(for: maria)
            #expect(consent.text.contains(#"name="first_name" value="\#(preselected.firstName)""#))
            #expect(consent.text.contains(#"name="last_name" value="\#(preselected.lastName)""#))
            #expect(consent.text.contains(#"value="share" checked"#))

            // The web approval, given only hide_email: the name is the account's.
            var order = RP.Order()
            order.scope = "name email"
            order.responseMode = "form_post"
            order.hideEmail = false
            let web = try #require(try await RP.authorize(client, order)["user"])
            let webUser = try AuthorizedUser(jsonString: web)
            #expect(webUser.name == .init(firstName: maria.firstName, lastName: maria.lastName))
            #expect(webUser.email == maria.email)

            // The native approval, given only hide_email: the same default for another Apple ID.
            let native = try await client.execute(
                uri: "/admin/native-credentials", method: .post, headers: RP.adminHeaders,
                body: ByteBuffer(
                    string: #"{"bundle_id":"\#(TestServer.bundleID)","apple_id":"robin@example.com","scope":"name email","hide_email":false}"#))
            struct Credential: Decodable {
                var fullName: AuthorizedUser.Name?
                var email: String?
            }
            let credential = try JSONDecoder().decode(Credential.self, from: Data(buffer: native.body))
            #expect(credential.fullName == .init(firstName: robin.firstName, lastName: robin.lastName))
            #expect(credential.email == robin.email)
        }
    }
}
