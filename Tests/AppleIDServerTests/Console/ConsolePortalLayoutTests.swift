import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import Testing

/// The console's frame as Apple's "Certificates, Identifiers & Profiles": a sidebar of sections, and
/// lists with a "+" button, a type filter and a search that work without JavaScript.
@Suite("Console layout: a sidebar, and lists with +, a type filter and search")
struct ConsolePortalLayoutTests {
    static let pages = [
        "/console/identifiers", "/console/keys", "/console/notifications", "/console/requests", "/console/transfer", "/console/members",
        "/console/account",
    ]

    @Test("every console page has the sidebar: Identifiers, Keys, Services, Requests, Membership, Account")
    func sidebar() async throws {
        try await ConsolePages.signedIn { server, browser, _ in
            for path in Self.pages {
                let page = try await browser.get(path)
                #expect(page.status == .ok, "\(path)")
                #expect(page.text.contains("<nav class=\"portal-sidebar\""), "\(path)")
                for link in Self.pages { #expect(page.text.contains("href=\"\(link)\""), "\(path) links to \(link)") }
                #expect(page.text.contains("<div class=\"portal-main\">"), "\(path)")
            }
        }
    }

    @Test("the Identifiers list shows App IDs by default, Services IDs with ?type=services, and ?q= searches both columns")
    func filterAndSearch() async throws {
        try await ConsolePages.signedIn { server, browser, _ in
            let apps = try await browser.get("/console/identifiers")
            #expect(apps.text.contains("<a href=\"/console/identifiers/add\" class=\"add\" id=\"add-identifier\""))
            #expect(apps.text.contains("<select name=\"type\""))
            #expect(apps.text.contains("<input type=\"search\" name=\"q\""))
            #expect(apps.text.contains("href=\"/console/app-ids/\(TestServer.bundleID.rawValue)\""))
            #expect(!apps.text.contains("href=\"/console/services-ids/\(TestServer.servicesID.rawValue)\""))
            let services = try await browser.get("/console/identifiers?type=services")
            #expect(services.text.contains("href=\"/console/services-ids/\(TestServer.servicesID.rawValue)\""))
            #expect(services.text.contains("href=\"/console/services-ids/\(TestServer.otherServicesID.rawValue)\""))
            #expect(!services.text.contains("href=\"/console/app-ids/"))
            let searched = try await browser.get("/console/identifiers?type=services&q=OTHER")
            #expect(searched.text.contains("href=\"/console/services-ids/\(TestServer.otherServicesID.rawValue)\""))
            #expect(!searched.text.contains("href=\"/console/services-ids/\(TestServer.servicesID.rawValue)\""))
            #expect(searched.text.contains("name=\"q\" value=\"OTHER\""), "the search box keeps what was searched")
            let none = try await browser.get("/console/identifiers?q=nothing-like-this")
            #expect(none.text.contains("id=\"no-identifiers\""))
        }
    }

    @Test("the Keys list has a + button and a search by name or Key ID")
    func keysList() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            _ = try await browser.post(
                "/console/keys", form: [("csrf", csrf), ("name", "Web key"), ("primary_app_id", TestServer.bundleID.rawValue)])
            let keys = try await browser.get("/console/keys")
            #expect(keys.text.contains("<a href=\"/console/keys/add\" class=\"add\" id=\"add-key\""))
            #expect(keys.text.contains("Web key"))
            let searched = try await browser.get("/console/keys?q=web")
            #expect(searched.text.contains("Web key"))
            #expect(!searched.text.contains("href=\"/console/keys/\(TestServer.keyID.rawValue)\""))
        }
    }

    @Test("Arabic and Hebrew console pages lay the sidebar out right to left")
    func rightToLeft() async throws {
        try await ConsolePages.signedIn { server, browser, _ in
            for locale in ["ar", "he"] {
                browser.acceptLanguage = locale
                let page = try await browser.get("/console/identifiers")
                #expect(page.text.contains("<html lang=\"\(locale)\" dir=\"rtl\">"))
                #expect(page.text.contains("<nav class=\"portal-sidebar\""))
            }
        }
    }
}
