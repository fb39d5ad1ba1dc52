import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import Testing

/// Registering an identifier as in Apple's portal: choose a type, then a description and identifier,
/// then Sign in with Apple and its Configure, then a review, then Register. Every step carries what
/// the earlier ones chose, and a refused step shows the engine's reason with the input kept.
@Suite("Console register flow for App IDs and Services IDs")
struct ConsoleRegisterFlowTests {
    @Test("a Services ID is registered step by step; two Return URLs typed one a line (CRLF) are two on the review and in the engine")
    func servicesIDStepByStep() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let choose = try await browser.get("/console/identifiers/add")
            #expect(choose.text.contains("name=\"type\" value=\"app\""))
            #expect(choose.text.contains("name=\"type\" value=\"services\""))
            let details = try await browser.post("/console/identifiers/add", form: [("csrf", csrf), ("type", "services"), ("go", "details")])
            #expect(details.status == .ok)
            #expect(details.text.contains("id=\"identifier\" name=\"identifier\""))
            #expect(HTML.hiddenInputs(details.text)["type"] == "services")
            var form = [("csrf", csrf), ("type", "services"), ("description", "Shop web"), ("identifier", "com.example.juice.shop")]
            let capabilities = try await browser.post("/console/identifiers/add", form: form + [("go", "capabilities")])
            #expect(capabilities.status == .ok)
            #expect(HTML.hiddenInputs(capabilities.text)["identifier"] == "com.example.juice.shop")
            #expect(HTML.hiddenInputs(capabilities.text)["description"] == "Shop web")
            #expect(capabilities.text.contains("name=\"sign_in_with_apple\""))
            #expect(capabilities.text.contains("id=\"return-urls\""))
            form += [
                ("sign_in_with_apple", "on"), ("primary_app_id", TestServer.bundleID.rawValue), ("domains", "shop.example.com\r\nshop.example.org"),
                ("return_urls", "https://shop.example.com/a\r\nhttps://shop.example.org/b"),
            ]
            let review = try await browser.post("/console/identifiers/add", form: form + [("go", "review")])
            #expect(review.status == .ok)
            #expect(review.text.contains("<li><code>https://shop.example.com/a</code></li><li><code>https://shop.example.org/b</code></li>"))
            #expect(review.text.contains("id=\"register\""))
            #expect(
                HTML.hiddenInputs(review.text)["return_urls"].map(ListField.entries) == ["https://shop.example.com/a", "https://shop.example.org/b"])
            #expect(try await server.provider.registeredClient("com.example.juice.shop") == nil, "nothing is saved before Register")
            let registered = try await browser.post("/console/identifiers/add", form: form + [("go", "register")])
            #expect(registered.status == .seeOther)
            #expect(registered.headers[.location] == "/console/services-ids/com.example.juice.shop?registered=1")
            let client = try #require(try await server.provider.registeredClient("com.example.juice.shop"))
            #expect(client.returnURLs == ["https://shop.example.com/a", "https://shop.example.org/b"])
            #expect(client.domains == ["shop.example.com", "shop.example.org"])
        }
    }

    @Test("an App ID grouped with a primary App ID is registered after its review")
    func appIDGrouped() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let form = [
                ("csrf", csrf), ("type", "app"), ("description", "Juice Watch"), ("bundle_id", "com.example.juice.watch"),
                ("sign_in_with_apple", "on"), ("primary_app_id", TestServer.bundleID.rawValue),
            ]
            let capabilities = try await browser.post("/console/identifiers/add", form: Array(form.prefix(4)) + [("go", "capabilities")])
            #expect(capabilities.text.contains("<option value=\"\(TestServer.bundleID.rawValue)\""))
            let review = try await browser.post("/console/identifiers/add", form: form + [("go", "review")])
            #expect(review.text.contains("id=\"review-group\""))
            #expect(HTML.element(id: "review-identifier", in: review.text) == "com.example.juice.watch")
            let registered = try await browser.post("/console/identifiers/add", form: form + [("go", "register")])
            #expect(registered.headers[.location] == "/console/app-ids/com.example.juice.watch?registered=1")
            #expect(try await server.provider.registeredClient("com.example.juice.watch")?.groupID == TestServer.bundleID)
        }
    }

    @Test("a refused identifier returns to its step with the reason and what was typed")
    func detailsRefusedKeepsInput() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let refused = try await browser.post(
                "/console/identifiers/add",
                form: [("csrf", csrf), ("type", "services"), ("description", "Shop web"), ("identifier", "com example"), ("go", "capabilities")])
            #expect(refused.status == .badRequest)
            #expect(HTML.element(id: "error", in: refused.text)?.hasPrefix("The identifier com example is not valid.") == true)
            #expect(refused.text.contains("id=\"identifier\" name=\"identifier\" value=\"com example\""))
            #expect(refused.text.contains("id=\"description\" name=\"description\" value=\"Shop web\""))
        }
    }

    @Test("a Return URL refused at Register returns to the capabilities step, every line kept")
    func capabilitiesRefusedKeepsInput() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let typed = "https://shop.example.com/a\r\nhttps://203.0.113.9/cb"
            let refused = try await browser.post(
                "/console/identifiers/add",
                form: [
                    ("csrf", csrf), ("type", "services"), ("description", "Shop web"), ("identifier", "com.example.juice.shop"),
                    ("sign_in_with_apple", "on"), ("primary_app_id", TestServer.bundleID.rawValue), ("domains", "shop.example.com"),
                    ("return_urls", typed), ("go", "register"),
                ])
            #expect(refused.status == .badRequest)
            #expect(HTML.element(id: "error", in: refused.text) == "https://203.0.113.9/cb: IP addresses are not allowed. Use a domain name.")
            #expect(HTML.element(id: "return-urls", in: refused.text) == typed)
            #expect(HTML.hiddenInputs(refused.text)["identifier"] == "com.example.juice.shop")
            #expect(try await server.provider.registeredClient("com.example.juice.shop") == nil)
        }
    }
}
