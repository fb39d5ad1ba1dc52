import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import Testing

/// Registering a key as in Apple's portal: a Key Name, Sign in with Apple with its Configure (the
/// primary App ID), a review, Register, then a download page that works once.
@Suite("Console key flow: name, configure, review, download once")
struct ConsoleKeyFlowTests {
    @Test("a key is registered with its name and primary App ID, and its download page warns it works once")
    func registerAndDownload() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let add = try await browser.get("/console/keys/add")
            #expect(add.text.contains("id=\"key-name\" name=\"name\""))
            #expect(add.text.contains("name=\"sign_in_with_apple\""))
            #expect(add.text.contains("id=\"configure-key\""))
            let form = [("csrf", csrf), ("name", "Juice web key"), ("sign_in_with_apple", "on"), ("primary_app_id", TestServer.bundleID.rawValue)]
            let review = try await browser.post("/console/keys/add", form: form + [("go", "review")])
            #expect(HTML.element(id: "review-key-name", in: review.text) == "Juice web key")
            #expect(try await server.provider.developerKeys(teamID: TestServer.teamID).count == 1, "nothing is saved before Register")
            let registered = try await browser.post("/console/keys/add", form: form + [("go", "register")])
            let key = try #require(try await server.provider.developerKeys(teamID: TestServer.teamID).first { $0.id != TestServer.keyID })
            #expect(try await browser.get("/console/keys/\(key.id)").text.contains("name=\"name\" value=\"Juice web key\""))
            #expect(registered.headers[.location] == "/console/keys/\(key.id)/download")
            let page = try await browser.get("/console/keys/\(key.id)/download")
            #expect(page.text.contains("id=\"download-once\""))
            #expect(page.text.contains("id=\"download-\(key.id)\""))
            let download = try await browser.post("/console/keys/\(key.id)/download", form: [("csrf", csrf)])
            #expect(download.text.hasPrefix("-----BEGIN PRIVATE KEY-----"))
            let again = try await browser.get("/console/keys/\(key.id)/download")
            #expect(again.text.contains("id=\"already-downloaded\""))
            #expect(!again.text.contains("id=\"download-\(key.id)\""))
        }
    }

    @Test("a key without a name comes back with the reason and the primary App ID still chosen")
    func nameRequired() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let refused = try await browser.post(
                "/console/keys/add",
                form: [
                    ("csrf", csrf), ("name", " "), ("sign_in_with_apple", "on"), ("primary_app_id", TestServer.bundleID.rawValue), ("go", "review"),
                ])
            #expect(refused.status == .badRequest)
            #expect(HTML.element(id: "error", in: refused.text) == "Enter a key name.")
            #expect(refused.text.contains("<option value=\"\(TestServer.bundleID.rawValue)\" selected>"))
        }
    }

    @Test("a key's page shows its name, Key ID and primary App ID; its name can be changed")
    func editKey() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let kid = TestServer.keyID.rawValue
            let page = try await browser.get("/console/keys/\(kid)")
            #expect(HTML.element(id: "key-id", in: page.text) == kid)
            let saved = try await browser.post("/console/keys/\(kid)", form: [("csrf", csrf), ("name", "Renamed")])
            #expect(saved.status == .ok)
            #expect(try await browser.get("/console/keys/\(kid)").text.contains("name=\"name\" value=\"Renamed\""))
        }
    }
}
