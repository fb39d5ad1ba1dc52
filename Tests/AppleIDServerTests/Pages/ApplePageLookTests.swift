import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Apple ID pages look the part")
struct ApplePageLookTests {
    static let svgLogo = #"<svg class="apple-logo" viewBox="0 0 16 19""#

    @Test("no page shows U+F8FF; the Apple logo is an inline SVG in the bar of every page and on the sign-in pages")
    func appleLogo() async throws {
        let server = try await TestServer.make(playground: true)
        try await server.app.test(.router) { client in
            var pages = try await ApplePages.all(locale: "en", server: server, client: client)
            let playground = try await Browser(client).get("/playground")
            pages.append(.init(name: "playground", html: playground.text))
            pages.append(.init(name: "landing", html: try await client.execute(uri: "/", method: .get).text))
            for page in pages {
                #expect(!page.html.contains("\u{F8FF}") && !page.html.contains("&#63743;") && !page.html.contains("&#xF8FF;"), "\(page.name)")
                #expect(page.html.contains(#"<div class="bar">"# + Self.svgLogo), "\(page.name)")
            }
            for name in ["sign-in", "account sign-in"] {
                let page = try #require(pages.first { $0.name == name })
                #expect(page.html.contains(#"<div class="apple-mark">"# + Self.svgLogo), "\(name)")
            }
            #expect(playground.text.contains(#"<button type="submit" id="sign-in-with-apple" class="apple-button">"# + Self.svgLogo))
        }
    }

    @Test("the sign-in, two-factor, consent and Continue pages: headline, app name and icon slot, Apple's share/hide rows")
    func interactionPages() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let pages = try await ApplePages.all(locale: "en", server: server, client: client)
            func page(_ name: String) throws -> String { try #require(pages.first { $0.name == name }).html }

            let signIn = try page("sign-in")
            #expect(signIn.contains("<h1>Sign in with Apple ID</h1>"))
            #expect(signIn.contains(#"<p class="subtitle">Use your Apple ID to sign in to Juice.</p>"#))

            let appIdentity = #"<div class="app-icon" role="img" aria-label="Juice icon">J</div>"# + "\n" + #"  <div class="app-name">Juice</div>"#
            for name in ["two-factor", "consent", "continue"] { #expect(try page(name).contains(appIdentity), "\(name)") }

            let consent = try page("consent")
            #expect(consent.contains(#"<h1 class="centered">Create an account for Juice using your Apple ID “maria@example.com”</h1>"#))
            #expect(consent.contains(#"<input type="text" id="first_name" name="first_name" value="Maria" maxlength="100">"#))
            #expect(consent.contains(#"<input type="text" id="last_name" name="last_name" value="Ruiz" maxlength="100">"#))
            #expect(
                consent.contains(
                    #"<label class="choice"><input type="radio" name="email" value="share" checked><span><strong>Share My Email</strong><span class="detail">maria.ruiz@example.com</span>"#
                ))
            #expect(
                consent.contains(
                    #"<label class="choice"><input type="radio" name="email" value="hide"><span><strong>Hide My Email</strong><span class="detail">Forward to: maria.ruiz@example.com</span>"#
                ))
            #expect(consent.contains("Juice gets a unique, random address @privaterelay.appleid.com; mail sent to it is forwarded to you."))

            let confirm = try page("continue")
            #expect(confirm.contains("<h1>Continue to Juice?</h1>"))
            #expect(confirm.contains("Do you want to continue using Juice with your Apple ID “maria@example.com”?"))
            #expect(confirm.contains(#"<button type="submit" name="action" value="approve">Continue</button>"#))
        }
    }

    @Test("Delete Apple ID on /account is a destructive button in its own danger zone")
    func destructiveDelete() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let pages = try await ApplePages.all(locale: "en", server: server, client: client)
            let account = try #require(pages.first { $0.name == "account" }).html
            #expect(account.contains(#"<section class="danger-zone">"#))
            #expect(account.contains(#"<button type="submit" class="destructive" id="delete-apple-id">Delete Apple ID</button>"#))
            #expect(account.contains("button.destructive { background: #e30000; color: #fff; }"))
        }
    }
}
