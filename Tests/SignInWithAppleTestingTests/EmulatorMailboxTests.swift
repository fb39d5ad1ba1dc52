import Foundation
import SignInWithApple
import SignInWithAppleTesting
import Testing

@Suite("The emulator's mailbox: the mail the relay forwarded, by Apple ID or relay address", .timeLimit(.minutes(5)))
struct EmulatorMailboxTests {
    @Test("mail sent through the relay to a hidden address is in the mailbox of the Apple ID and of the relay address")
    func mailboxForAppleIDAndRelayAddress() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let hidden = ConsentChoices(firstName: "Emma", lastName: "Apple", hideEmail: true)
            let result = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa, choices: hidden)
            let relayAddress = try #require(result.identity.email)
            #expect(try await apple.mailbox(for: apple.defaultUser.appleID).isEmpty)

            try await apple.addEmailSource("shop.example")
            let source = Array("From: Shop <orders@shop.example>\r\nSubject: Your order\r\n\r\nThank you!\r\n".utf8)
            try await apple.sendMail(from: "orders@shop.example", to: [relayAddress], source: source)

            let byAppleID = try await apple.mailbox(for: apple.defaultUser.appleID)
            let mail = try #require(byAppleID.first)
            #expect(byAppleID.count == 1)
            #expect(mail.subject == "Your order")
            #expect(mail.to == relayAddress)
            #expect(mail.from.contains("orders_at_shop_example_"), "the sender as the relay rewrote it")
            #expect(mail.text == "Thank you!\r\n")
            #expect(try await apple.mailbox(for: relayAddress.uppercased()) == byAppleID)
            #expect(try await apple.mailbox(for: "nobody@privaterelay.appleid.com").isEmpty)
        }
    }
}
