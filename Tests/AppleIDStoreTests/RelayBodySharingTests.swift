import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Logging
import SQLKit
import ServerTestSupport
import Testing

@testable import AppleIDStore

/// A message to several relay addresses (issue 35, finding 10): the relay gives its copies one
/// body, and the SQLite store keeps it once, not once per recipient.
@Suite("The relay stores one body for a message's recipients")
struct RelayBodySharingTests {
    @Test("one message to two relay addresses: two heads, one stored body, each copy whole")
    func oneBodyForTwoRecipients() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-body-sharing-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (store, shutdown) = try await SQLStore.sqlite(path: path, logger: Logger(label: "test"))
        do {
            let server = try await TestEngine.make(store: store)
            let account = try #require(try await store.account(appleID: TestEngine.maria.appleID))
            let addresses = ["body1share@privaterelay.appleid.com", "body2share@privaterelay.appleid.com"]
            for (team, address) in zip([TestEngine.teamID, TestEngine.otherTeamID], addresses) {
                _ = try await store.insertTeamIdentity(
                    TeamIdentity(
                        accountID: account.id, teamID: team, subject: Subject(rawValue: "000001.share.\(team.rawValue)"), relayAddress: address))
                _ = try await server.provider.addEmailSources("example.com", teamID: team)
            }
            let body = Array(String(repeating: "A line of the newsletter that both users get.\r\n", count: 4_000).utf8)
            let message = Array("From: <news@example.com>\r\nSubject: Shared\r\n\r\n".utf8) + body

            let reply = try await server.relay.accept(sender: "news@example.com", recipients: addresses, source: message)
            #expect(reply.code == 250)

            let stored = try await server.relay.messages(.all)
            #expect(stored.count == 2)
            for mail in stored {
                let source = try #require(try await store.relayMessageSource(id: mail.message.id))
                #expect(Array(source.suffix(body.count)) == body)
                #expect(String(decoding: source.prefix(source.count - body.count), as: UTF8.self).contains("To: <\(mail.message.recipient)>"))
            }
            let bodyBytes = try await store.db.select().column("bytes").from("relay_message_bodies").all()
                .reduce(0) { $0 + (try $1.decode(column: "bytes", as: String.self)).count }
            let base64Body = Data(body).base64EncodedString().count
            #expect(bodyBytes >= base64Body && bodyBytes < base64Body + 16, "\(bodyBytes) stored for one body of \(base64Body)")
            #expect(try await store.db.select().column("bytes").from("relay_message_chunks").all().isEmpty)
        } catch {
            try await shutdown()
            throw error
        }
        try await shutdown()
    }
}
