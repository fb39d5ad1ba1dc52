import AppleIDProtocol
import AppleIDRelay
import Foundation
import HummingbirdTesting
import SMTPSending
import SQLKit
import SignInWithAppleTesting
import Testing

@testable import JuiceApp

/// Juice mails an order confirmation over real SMTP to the address it holds: through the private
/// relay for a hidden address (spec §11). The relay listens on 127.0.0.1; nothing else is reached.
@Suite("Juice: order confirmations by e-mail, through the private relay", .timeLimit(.minutes(5)))
struct OrderConfirmationMailTests {
    static let hidden = ConsentChoices(firstName: "Emma", lastName: "Apple", hideEmail: true)

    /// Signs the default user in with a hidden address; returns the relay address Juice holds.
    static func signInHidden(_ juice: JuiceHarness) async throws -> String {
        _ = try await juice.browser.signInWithApple(as: juice.apple.defaultUser.appleID, choices: hidden)
        let account = try #require(
            try await juice.database.sql.raw("SELECT * FROM accounts").first(decoding: Account.self, keyDecodingStrategy: .convertFromSnakeCase))
        #expect(account.emailIsPrivate)
        return account.email
    }

    static func order(_ juice: JuiceHarness, _ slug: String = "orange") async throws -> TestResponse {
        try await juice.browser.post("/order/\(slug)", [], csrfFrom: try await juice.browser.get("/order/\(slug)"))
    }

    static func orderCount(_ juice: JuiceHarness) async throws -> Int {
        try await juice.database.sql.raw("SELECT COUNT(*) AS n FROM orders").first(decodingColumn: "n", as: Int.self) ?? 0
    }

    @Test("an order's confirmation lands in the Apple ID's mailbox, from a rewritten sender that hides Juice's address behind the relay")
    func confirmationForwarded() async throws {
        try await withJuiceSendingMail { juice, mail in
            let relayAddress = try await Self.signInHidden(juice)
            let page = try await Self.order(juice)
            #expect(page.status == .ok)
            #expect(page.text.contains("Orange Sunrise is being squeezed"))

            let delivered = try #require(try await mail.relay.waitForMail(.address(relayAddress), timeout: .seconds(240)).first)
            #expect(delivered.message.direction == .forward)
            #expect(delivered.delivery.state == .mailbox)
            #expect(delivered.message.originalSender == OrderMailSettings.defaultSender)
            #expect(delivered.message.destination == juice.apple.defaultUser.email)
            #expect(delivered.message.subject == "Your Juice order: Orange Sunrise")
            #expect(delivered.message.from.contains("<orders_at_juice_example_com_"))
            #expect(try await mail.relay.mailbox(accountID: delivered.message.accountID).map(\.message.id) == [delivered.message.id])
            let source = String(decoding: try #require(try await mail.relay.message(id: delivered.message.id)).source, as: UTF8.self)
            #expect(source.contains("From: \"Juice\" <orders_at_juice_example_com_"))
            #expect(source.contains("Hello Emma,"))
            #expect(!source.contains("From: Juice <orders@juice.example.com>"), "the app's own address is rewritten")
            #expect(await mail.log.first("order confirmation sent")?.metadata["account"] != nil)
        }
    }

    @Test("with forwarding off (before Juice heard of it), the relay refuses with 550; Juice logs the reply and keeps the order")
    func refusedWhenForwardingOff() async throws {
        try await withJuiceSendingMail { juice, mail in
            let relayAddress = try await Self.signInHidden(juice)
            try await juice.apple.setEmailForwarding(false, for: juice.apple.defaultUser.appleID)  // the notification is not delivered yet
            let page = try await Self.order(juice)
            #expect(page.status == .ok)
            #expect(page.text.contains("Orange Sunrise is being squeezed"))

            let refused = try #require(await mail.log.first("order confirmation refused"))
            let reply = try #require(refused.metadata["reply"])
            #expect(reply.hasPrefix("550 5.7.1"))
            #expect(reply.contains("turned off forwarding"))
            #expect(try await Self.orderCount(juice) == 1, "the order is kept")
            #expect(try await mail.relay.messages(.address(relayAddress)).isEmpty)
        }
    }

    @Test("once Juice has the email-disabled notification it sends nothing, and says why in its log")
    func notSentAfterEmailDisabled() async throws {
        try await withJuiceSendingMail { juice, mail in
            _ = try await Self.signInHidden(juice)
            try await juice.apple.setEmailForwarding(false, for: juice.apple.defaultUser.appleID)
            _ = try await juice.deliverNotifications()
            _ = try await Self.order(juice)
            let skipped = try #require(mail.log.lines.first { $0.message == "order confirmation not sent" })
            #expect(skipped.metadata["reason"] == "the user turned e-mail forwarding off")
            #expect(try await Self.orderCount(juice) == 1)
        }
    }

    @Test("a managed student with no e-mail orders: the order is kept and no mail is sent")
    func nothingSentWithoutAddress() async throws {
        try await withJuiceSendingMail { juice, mail in
            let school = try await juice.apple.createOrganization(name: "Cupertino High")
            let student = try await juice.apple.createManagedUser(username: "sam@appleid.cupertino.example.edu", in: school, firstName: "Sam")
            _ = try await juice.browser.signInWithApple(as: student.username)
            let page = try await Self.order(juice)
            #expect(page.status == .ok)
            let skipped = try #require(mail.log.lines.first { $0.message == "order confirmation not sent" })
            #expect(skipped.metadata["reason"] == "no e-mail address")
            #expect(try await Self.orderCount(juice) == 1)
            #expect(try await mail.relay.messages(.all).isEmpty)
        }
    }

    @Test("the user's reply from the real address to the rewritten sender reaches Juice's sender address, from the relay address only")
    func replyReachesJuice() async throws {
        try await withJuiceSendingMail { juice, mail in
            let relayAddress = try await Self.signInHidden(juice)
            _ = try await Self.order(juice)
            let confirmation = try #require(try await mail.relay.waitForMail(.address(relayAddress), timeout: .seconds(240)).first)
            let rewrittenSender = try #require(confirmation.message.from.split(separator: "<").last?.dropLast()).description

            let realAddress = juice.apple.defaultUser.email
            let reply = Array(
                "From: Emma <\(realAddress)>\r\nTo: <\(rewrittenSender)>\r\nSubject: Re: Your Juice order\r\n\r\nMore ice, please.\r\n".utf8)
            let user = SMTPClient(host: "127.0.0.1", port: mail.smtpPort, hostname: "mail.example.com", timeout: .seconds(240))
            #expect(await user.send(from: realAddress, to: rewrittenSender, source: reply) == .sent)

            // Without a smarthost the relay holds mail to outside addresses for the admin API: what
            // Juice's mail server would receive.
            let received = try #require(try await mail.relay.messages(.address(OrderMailSettings.defaultSender)).first)
            #expect(received.message.direction == .reply)
            #expect(received.delivery.state == .held)
            #expect(received.message.envelopeSender == relayAddress)
            let source = String(decoding: try #require(try await mail.relay.message(id: received.message.id)).source, as: UTF8.self)
            #expect(source.contains("From: <\(relayAddress)>"))
            #expect(source.contains("To: <\(OrderMailSettings.defaultSender)>"))
            #expect(source.contains("More ice, please."))
            #expect(!source.lowercased().contains(realAddress.lowercased()), "Juice never sees the real address")
        }
    }

    @Test("Juice's default sender is an e-mail source of siwa serve's demo team")
    func defaultSenderIsSeeded() {
        #expect(OrderMailSettings.defaultSender == DemoFacts.juiceMailSender)
    }
}
