import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import Testing

/// Editing and removing identifiers and keys with Apple's rules of what cannot be undone.
@Suite("Console edit and remove: App IDs, Services IDs and keys")
struct ConsoleEditRemoveTests {
    @Test("an App ID's page shows its Bundle ID as text that cannot be edited; its description can be")
    func editAppID() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let page = try await browser.get("/console/app-ids/\(TestServer.bundleID.rawValue)")
            #expect(page.status == .ok)
            #expect(HTML.element(id: "bundle-id", in: page.text) == TestServer.bundleID.rawValue)
            #expect(!page.text.contains("name=\"bundle_id\""), "no field can change the Bundle ID")
            let saved = try await browser.post(
                "/console/app-ids/\(TestServer.bundleID.rawValue)", form: [("csrf", csrf), ("description", "Juice for iPhone")])
            #expect(saved.status == .ok)
            #expect(try await server.provider.registeredClient(TestServer.bundleID)?.description == "Juice for iPhone")
            let refused = try await browser.post("/console/app-ids/\(TestServer.bundleID.rawValue)", form: [("csrf", csrf), ("description", "")])
            #expect(refused.status == .badRequest)
            #expect(HTML.element(id: "error", in: refused.text) == "Enter a description.")
        }
    }

    @Test("an App ID's page records its associated webcredentials domains, checked by the domain rules")
    func associatedDomains() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let path = "/console/app-ids/\(TestServer.bundleID.rawValue)"
            let saved = try await browser.post(
                path, form: [("csrf", csrf), ("description", "Juice"), ("webcredentials", "webcredentials:Juice.example.com\nshop.example.com")])
            #expect(saved.status == .ok)
            #expect(
                try await server.provider.registeredClient(TestServer.bundleID)?.webCredentialsDomains == ["juice.example.com", "shop.example.com"])
            #expect(try await browser.get(path).text.contains("juice.example.com\nshop.example.com</textarea>"))
            let refused = try await browser.post(
                path, form: [("csrf", csrf), ("description", "Juice"), ("webcredentials", "https://juice.example.com")])
            #expect(refused.status == .badRequest)
            #expect(HTML.element(id: "error", in: refused.text) == "https://juice.example.com: enter a domain name only, without https:// or a path.")
            #expect(
                try await server.provider.registeredClient(TestServer.bundleID)?.webCredentialsDomains == ["juice.example.com", "shop.example.com"])
        }
    }

    @Test("removing an App ID that Services IDs are grouped under is refused with the reason, after a confirmation page")
    func removeGroupedPrimaryRefused() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let confirm = try await browser.get("/console/app-ids/\(TestServer.bundleID.rawValue)/remove")
            #expect(confirm.status == .ok)
            #expect(confirm.text.contains("id=\"confirm-remove\""))
            let refused = try await browser.post("/console/app-ids/\(TestServer.bundleID.rawValue)/remove", form: [("csrf", csrf)])
            #expect(refused.status == .badRequest)
            #expect(HTML.element(id: "error", in: refused.text)?.contains("cannot be removed: \(TestServer.otherServicesID.rawValue)") == true)
            #expect(try await server.provider.registeredClient(TestServer.bundleID) != nil)
        }
    }

    @Test("a Services ID is removed after its confirmation page, and the list no longer shows it")
    func removeServicesID() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let id = TestServer.otherServicesID.rawValue
            let confirm = try await browser.get("/console/services-ids/\(id)/remove")
            #expect(confirm.text.contains("id=\"confirm-remove\""))
            let removed = try await browser.post("/console/services-ids/\(id)/remove", form: [("csrf", csrf)])
            #expect(removed.status == .seeOther)
            #expect(try await server.provider.registeredClient(TestServer.otherServicesID) == nil)
            #expect(!(try await browser.get("/console/identifiers?type=services").text.contains("/console/services-ids/\(id)\"")))
        }
    }

    @Test("revoking a key asks first, says it cannot be undone, and then revokes it")
    func revokeKeyConfirmed() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let kid = TestServer.keyID.rawValue
            let confirm = try await browser.get("/console/keys/\(kid)/revoke")
            #expect(confirm.status == .ok)
            #expect(confirm.text.contains("id=\"confirm-revoke\""))
            #expect(
                try await server.provider.console(team: TestServer.teamID).developerKey(TestServer.keyID)?.revokedAt == nil,
                "showing the confirmation revokes nothing")
            let revoked = try await browser.post("/console/keys/\(kid)/revoke", form: [("csrf", csrf)])
            #expect(revoked.status == .ok)
            #expect(try await server.provider.console(team: TestServer.teamID).developerKey(TestServer.keyID)?.revokedAt != nil)
        }
    }
}
