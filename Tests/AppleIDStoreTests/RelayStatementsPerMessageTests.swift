import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import AppleIDStore
import Foundation
import ServerTestSupport
import Testing

/// What one relayed message costs the store (issue 38, goal 3), counted on SQLite: the statements
/// from `RCPT TO` to the `250` after `DATA` (``StatementCounter``: `BEGIN` and `COMMIT` aside).
/// Before: 17 (the route read twice, the sender's e-mail sources three times, the daily limit
/// counted twice, the reply alias written and read back at every message).
@Suite("The statements one relayed message takes")
struct RelayStatementsPerMessageTests {
    static let sender = "news@example.com"
    static let address = TestEngine.relayAddress
    /// A message of about 10 KB, as the relay benchmark sends.
    static let message = Array(
        ("From: <news@example.com>\r\nSubject: Count\r\n\r\n" + String(repeating: String(repeating: "x", count: 76) + "\r\n", count: 131)).utf8)

    @Test("a 10 KB message to one relay address, RCPT to 250, takes at most 13 statements (17 before); the reply alias is read, not written")
    func oneMessage() async throws {
        try await StatementCounter.withSQLiteStore { store, counter in
            let relay = try await Self.relay(on: store)
            // The sender's first message makes its reply alias; the count is the steady state's.
            #expect(try await Self.send(through: relay) == 250)
            counter.reset()

            #expect(try await Self.send(through: relay) == 250)

            #expect(counter.statements <= 13, "\(counter.statements) statements")
            #expect(counter.statements(containing: "INSERT INTO \"relay_reply_aliases\"") == 0, "the alias is written again")
            #expect(counter.statements(from: "relay_reply_aliases") == 1, "the alias is read once")
            #expect(try await relay.messages(.address(Self.address)).count == 2)
        }
    }

    @Test("the sender's first message still makes its reply alias, and later ones reuse it")
    func aliasMadeOnce() async throws {
        try await StatementCounter.withSQLiteStore { store, _ in
            let relay = try await Self.relay(on: store)
            #expect(try await Self.send(through: relay) == 250)
            #expect(try await Self.send(through: relay) == 250)
            let envelopeSenders = Set(try await relay.messages(.address(Self.address)).map(\.message.envelopeSender))
            #expect(envelopeSenders.count == 1)
            #expect(envelopeSenders.first?.hasPrefix("news_at_example_com_") == true)
        }
    }

    /// A test server on `store` whose Apple ID maria has the relay address, from a team whose
    /// e-mail source is example.com.
    static func relay(on store: SQLStore) async throws -> MailRelay {
        let server = try await TestEngine.make(store: store)
        let account = try #require(try await store.account(appleID: TestEngine.maria.appleID))
        _ = try await store.insertTeamIdentity(
            TeamIdentity(accountID: account.id, teamID: TestEngine.teamID, subject: "000001.count.0001", relayAddress: address))
        _ = try await server.provider.addEmailSources("example.com", teamID: TestEngine.teamID)
        return server.relay
    }

    /// `RCPT TO`, then the message: what the listener asks the relay for one message.
    static func send(through relay: MailRelay) async throws -> Int {
        let rcpt = try await relay.checkRecipient(address, sender: sender)
        guard rcpt.isPositive else { return rcpt.code }
        return try await relay.accept(sender: sender, recipients: [address], source: message).code
    }
}
