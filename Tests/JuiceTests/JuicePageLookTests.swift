import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import JuiceApp

@Suite("Juice pages look the part")
struct JuicePageLookTests {
    static let svgLogo = #"<svg class="apple-logo" viewBox="0 0 16 19" width="16" height="19" fill="currentColor""#

    @Test("every Apple button draws the Apple logo as an inline SVG, the upgrade button too; no U+F8FF")
    func appleLogo() async throws {
        try await withJuice { juice in
            let browser = juice.browser
            for path in ["/signin", "/signup"] {
                let page = try await browser.get(path)
                #expect(page.text.contains(Self.svgLogo), "\(path)")
                #expect(!page.text.contains("\u{F8FF}"), "\(path)")
            }
            #expect(try await browser.signUp(email: "plain@example.com", password: "my-password", firstName: "P", lastName: "L").status == .seeOther)
            let account = try await browser.get("/account")
            let upgrade = try #require(account.text.firstMatch(of: #/<button type="submit" id="upgrade"[^>]*>([\s\S]*?)</button>/#)).1
            #expect(upgrade.contains(Self.svgLogo))
            #expect(upgrade.contains("<span>Continue with Apple</span>"))
            #expect(!account.text.contains("\u{F8FF}"))
        }
    }

    @Test("an Orange Sunrise, a Crisp Apple: the article follows the name")
    func article() async throws {
        #expect(JuiceItem.indefiniteArticle(for: "Orange Sunrise") == "an")
        #expect(JuiceItem.indefiniteArticle(for: "Crisp Apple") == "a")
        try await withJuice { juice in
            let browser = juice.browser
            let orange = try await browser.get("/juices/orange")
            #expect(orange.text.contains("Order an Orange Sunrise"))
            let carrot = try await browser.get("/juices/carrot")
            #expect(carrot.text.contains("Order a Carrot Ginger"))
            let signedUp = try await browser.signUp(email: "o@example.com", password: "my-password", firstName: "O", lastName: "J")
            #expect(signedUp.status == .seeOther)
            let order = try await browser.get("/order/orange")
            #expect(order.text.contains("<h1>Order an Orange Sunrise</h1>"))
        }
    }
}
