import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import Testing

/// A console form refused by the engine comes back with the engine's reason and with what the
/// developer typed, as a browser sends it (lines separated by CRLF); nothing has to be typed twice.
@Suite("Console forms keep the developer's input after a validation error")
struct ConsoleKeptInputTests {
    @Test("a new Services ID refused for one Return URL comes back with its description, identifier, domains and every URL typed")
    func newServicesID() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let refused = try await browser.post(
                "/console/services-ids",
                form: [
                    ("csrf", csrf), ("description", "Shop web"), ("identifier", "com.example.juice.shop"),
                    ("primary_app_id", TestServer.bundleID.rawValue), ("domains", "shop.example.com"),
                    ("return_urls", "https://shop.example.com/auth/apple\r\nhttps://203.0.113.9/cb"),
                ])
            #expect(refused.status == .badRequest)
            #expect(HTML.element(id: "error", in: refused.text) == "https://203.0.113.9/cb: IP addresses are not allowed. Use a domain name.")
            // The Return URL's step (capabilities) shows it; the earlier steps' input rides along unchanged.
            #expect(HTML.hiddenInputs(refused.text)["description"] == "Shop web")
            #expect(HTML.hiddenInputs(refused.text)["identifier"] == "com.example.juice.shop")
            #expect(HTML.element(id: "domains", in: refused.text) == "shop.example.com")
            #expect(HTML.element(id: "return-urls", in: refused.text) == "https://shop.example.com/auth/apple\r\nhttps://203.0.113.9/cb")
        }
    }

    @Test("a new App ID refused for its description comes back with the bundle ID and the group chosen")
    func newAppID() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let refused = try await browser.post(
                "/console/app-ids",
                form: [
                    ("csrf", csrf), ("description", " "), ("bundle_id", "com.example.juice.watch"), ("primary_app_id", TestServer.bundleID.rawValue),
                ])
            #expect(refused.status == .badRequest)
            #expect(HTML.element(id: "error", in: refused.text) == "Enter a description.")
            #expect(refused.text.contains("id=\"bundle-id\" name=\"bundle_id\" value=\"com.example.juice.watch\""))
            #expect(HTML.hiddenInputs(refused.text)["primary_app_id"] == TestServer.bundleID.rawValue, "the group chosen is kept for the next step")
        }
    }

    @Test("a Services ID's new configuration refused shows the Return URLs just typed, not the saved ones")
    func configureServicesID() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let typed = "https://juice.example.com/next\r\nhttps://203.0.113.9/cb"
            let refused = try await browser.post(
                "/console/services-ids/\(TestServer.servicesID.rawValue)",
                form: [
                    ("csrf", csrf), ("primary_app_id", TestServer.bundleID.rawValue), ("domains", "juice.example.com"), ("return_urls", typed),
                ])
            #expect(refused.status == .badRequest)
            #expect(HTML.element(id: "return-urls", in: refused.text) == typed)
            #expect(HTML.element(id: "domains", in: refused.text) == "juice.example.com")
        }
    }

    @Test("a notification endpoint refused stays in its field; the other group's field is untouched")
    func notificationEndpoint() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let refused = try await browser.post(
                "/console/notifications/endpoint",
                form: [("csrf", csrf), ("group_id", TestServer.bundleID.rawValue), ("url", "ftp://juice.example.com/apple")])
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("name=\"url\" value=\"ftp://juice.example.com/apple\""))
        }
    }

    @Test("an invitation refused keeps the address typed; a refused password change never shows a password back")
    func invitationAndPassword() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let refused = try await browser.post("/console/members", form: [("csrf", csrf), ("email", "not an address")])
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("name=\"email\" value=\"not an address\""))

            let differ = try await browser.post(
                "/console/account/password",
                form: [("csrf", csrf), ("current", ConsolePages.password), ("password", "new secret one"), ("confirm", "new secret two")])
            #expect(differ.status == .badRequest)
            for secret in [ConsolePages.password, "new secret one", "new secret two"] { #expect(!differ.text.contains(secret)) }
        }
    }
}
