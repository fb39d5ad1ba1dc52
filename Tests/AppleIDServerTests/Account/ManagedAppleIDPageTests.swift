import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A Managed Apple ID through the pages (spec §21): the verification-code step in its own words,
/// the "at Work & School" consent, and an app its organization does not allow.
@Suite("Pages: Managed Apple IDs")
struct ManagedAppleIDPageTests {
    static let student = (username: "sam@appleid.cupertino.example.edu", password: "student pw")

    /// A school allowing Juice (or nothing) with one student without an e-mail.
    static func school(_ server: TestServer, allowing apps: [ClientID] = [TestServer.bundleID]) async throws -> Organization {
        let school = try await server.provider.organizations.add(
            name: "Cupertino High", kind: .school, accessRule: .specificApps, allowedApps: apps)
        _ = try await server.provider.organizations.addAccount(
            to: school.id, username: student.username, password: student.password, firstName: "Sam", lastName: "Student")
        return school
    }

    /// Signs the student in up to the page after the verification code; returns it with the form's action and CSRF token.
    static func signIn(_ browser: Browser, server: TestServer) async throws -> (page: TestResponse, action: String, csrf: String) {
        let signIn = try await browser.get(WebFlowTests.authorizeURI())
        let action = try #require(HTML.formAction(signIn.text))
        let csrf = try #require(HTML.hiddenInputs(signIn.text)["csrf"])
        let code = try await browser.post(
            action, form: [("csrf", csrf), ("action", "sign-in"), ("apple_id", student.username), ("password", student.password)])
        #expect(code.text.contains("Verify your Managed Apple ID"))
        #expect(code.text.contains("Enter the verification code from your organization"))
        #expect(!code.text.contains("Two-Factor Authentication"))
        let value = try #require(HTML.element(id: "development-code", in: code.text))
        let page = try await browser.post(action, form: [("csrf", csrf), ("action", "verify"), ("code", value)])
        return (page, action, csrf)
    }

    @Test("a student signs in: the organization's name shown, the name fixed, no Hide My Email, and a token without e-mail")
    func consent() async throws {
        let server = try await TestServer.make()
        let school = try await Self.school(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let (consent, action, csrf) = try await Self.signIn(browser, server: server)
            #expect(HTML.element(id: "organization", in: consent.text)?.contains("Cupertino High") == true)
            #expect(consent.text.contains(#"value="Sam" maxlength="100" readonly"#))
            #expect(!consent.text.contains(#"value="hide""#), "no Hide My Email at Work & School")
            #expect(HTML.element(id: "organization-email", in: consent.text)?.contains("has not given this Apple ID an email address") == true)

            let result = try await browser.post(
                action, form: [("csrf", csrf), ("action", "approve"), ("first_name", "Edited"), ("last_name", "Name"), ("email", "hide")])
            let fields = HTML.hiddenInputs(result.text)
            let user = try JSONDecoder().decode(AuthorizedUser.self, from: Data(try #require(fields["user"]).utf8))
            #expect(user.name?.firstName == "Sam")
            #expect(user.email == nil)
            let jws = try CompactJWS(try #require(fields["id_token"]))
            let payload = try #require(try JSONSerialization.jsonObject(with: Data(try jws.payloadBytes())) as? [String: Any])
            #expect(payload["email"] == nil)
            #expect(payload["email_verified"] as? String == "false")
            #expect(payload["org_id"] as? String == school.claimValue)
        }
    }

    @Test("an app the organization does not allow: a page that says so, and the callback gets user_cancelled_authorize")
    func notAllowed() async throws {
        let server = try await TestServer.make()
        _ = try await Self.school(server, allowing: [])
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let (page, action, csrf) = try await Self.signIn(browser, server: server)
            #expect(page.text.contains("This app is not available"))
            #expect(page.text.contains("Cupertino High does not allow your Managed Apple ID to sign in to Juice."))
            #expect(!page.text.contains(#"value="approve""#))

            let approved = try await browser.post(action, form: [("csrf", csrf), ("action", "approve")])
            #expect(HTML.hiddenInputs(approved.text)["code"] == nil, "approving the page issues nothing")

            let result = try await browser.post(action, form: [("csrf", csrf), ("action", "cancel")])
            let fields = HTML.hiddenInputs(result.text)
            #expect(HTML.formAction(result.text) == TestServer.redirectURI)
            #expect(fields["error"] == "user_cancelled_authorize")
            #expect(fields["code"] == nil)
            #expect(fields["state"] == "state-1")
        }
    }

    @Test("the at Work & School pages are in the page's language")
    func translated() async throws {
        let server = try await TestServer.make()
        _ = try await Self.school(server, allowing: [])
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let signIn = try await browser.get(WebFlowTests.authorizeURI() + "&locale=de")
            let action = try #require(HTML.formAction(signIn.text))
            let hidden = HTML.hiddenInputs(signIn.text)
            let form = [("csrf", hidden["csrf"] ?? ""), ("locale", "de")]
            let code = try await browser.post(
                action, form: form + [("action", "sign-in"), ("apple_id", Self.student.username), ("password", Self.student.password)])
            #expect(code.text.contains("Verwaltete Apple-ID bestätigen"))
            let value = try #require(HTML.element(id: "development-code", in: code.text))
            let page = try await browser.post(action, form: form + [("action", "verify"), ("code", value)])
            #expect(page.text.contains("Diese App ist nicht verfügbar"))
        }
    }
}
