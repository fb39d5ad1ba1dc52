import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import Testing

/// A browser sends a text area's line breaks as CRLF (HTML's form serialization normalizes every
/// newline to `\r\n`), which in Swift is one `Character` equal neither to `"\n"` nor to `"\r"`.
@Suite("Console multi-line fields as a browser sends them: CRLF between lines")
struct ConsoleMultilineFieldTests {
    static func register(_ browser: Browser, csrf: String, identifier: String, domains: String, returnURLs: String) async throws -> TestResponse {
        try await browser.post(
            "/console/services-ids",
            form: [
                ("csrf", csrf), ("description", "Shop web"), ("identifier", identifier), ("primary_app_id", TestServer.bundleID.rawValue),
                ("domains", domains), ("return_urls", returnURLs),
            ])
    }

    @Test("Return URLs and domains typed one a line are each stored, and each is held to Apple's rules")
    func returnURLsAndDomains() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let created = try await Self.register(
                browser, csrf: csrf, identifier: "com.example.juice.lines", domains: "shop.example.com\r\nwww.example.com\r\n",
                returnURLs: "https://shop.example.com/cb\r\nhttps://www.example.com/cb")
            #expect(created.status == .seeOther)
            let stored = try #require(try await server.provider.registeredClient("com.example.juice.lines"))
            #expect(stored.returnURLs == ["https://shop.example.com/cb", "https://www.example.com/cb"])
            #expect(stored.domains == ["shop.example.com", "www.example.com"])

            let second = try await Self.register(
                browser, csrf: csrf, identifier: "com.example.juice.ip", domains: "",
                returnURLs: "https://shop.example.com/cb\r\nhttps://203.0.113.9/cb")
            #expect(second.status == .badRequest)
            #expect(HTML.element(id: "error", in: second.text) == "https://203.0.113.9/cb: IP addresses are not allowed. Use a domain name.")

            let many = (0...100).map { "https://shop.example.com/cb\($0)" }.joined(separator: "\r\n")
            let tooMany = try await Self.register(browser, csrf: csrf, identifier: "com.example.juice.many", domains: "", returnURLs: many)
            #expect(tooMany.status == .badRequest, "an organization's Services ID takes 100 Return URLs")
            #expect(try await server.provider.registeredClient("com.example.juice.many") == nil)
        }
    }

    @Test("e-mail sources typed one a line are separate sources")
    func emailSources() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            _ = try await browser.post(
                "/console/email-sources", form: [("csrf", csrf), ("sources", "mail.juice.example.com\r\nhello@juice.example.com")])
            #expect(
                try await server.provider.emailSources(teamID: TestServer.teamID).map(\.value) == [
                    "mail.juice.example.com", "hello@juice.example.com",
                ])
        }
    }
}
