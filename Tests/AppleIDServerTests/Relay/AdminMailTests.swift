import AppleIDServerApp
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SMTPWire
import ServerTestSupport
import Testing

/// What the admin API shows of the mail the relay's SMTP listener took (issue 21). The listener
/// itself: `Tests/AppleIDServerAppTests/Mail/SMTPListenerTests`.
@Suite("GET /admin/mail: the mail the SMTP listener took")
struct AdminMailTests {
    @Test(
        "pipelined SMTP from a client lands in the mailbox; GET /admin/mail lists it and GET /admin/mail/{id} shows it raw and parsed",
        .timeLimit(.minutes(5)))
    func deliveredAndListed() async throws {
        let server = try await TestServer.make()
        try await server.arrangeRelayRecipient()
        let relay = server.relay
        let listener: @Sendable (@escaping @Sendable (Int) -> Void) async throws -> Void = { onListening in
            try await SMTPListener(
                host: "127.0.0.1", port: 0, relay: relay, hostname: "relay.test", logger: Logger(label: "test"), onListening: onListening
            ).run()
        }
        try await whileListening(listener) { port in
            var client = try await TinySMTPClient(port: port)
            #expect(try await client.replies(1).map(\.code) == [220])
            try await client.send("EHLO tiny\r\nMAIL FROM:<news@example.com>\r\nRCPT TO:<\(TestServer.relayAddress)>\r\nDATA\r\n")
            #expect(try await client.replies(4).map(\.code) == [250, 250, 250, 354])
            try await client.send("Subject: Over the wire\r\n\r\n..a stuffed line\r\n.\r\nQUIT\r\n")
            #expect(try await client.replies(2).map(\.code) == [250, 221])
            await client.close()

            try await server.app.test(.router) { http in
                let auth: HTTPFields = [.authorization: "Bearer \(TestServer.adminToken)"]
                let list = try await http.execute(uri: "/admin/mail?to=\(TestServer.relayAddress)", method: .get, headers: auth)
                #expect(list.status == .ok)
                let listed = try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [String: Any]
                let first = try #require((listed?["messages"] as? [[String: Any]])?.first)
                #expect(first["subject"] as? String == "Over the wire")
                #expect(first["delivery"] as? String == "mailbox")
                let id = try #require(first["id"] as? String)
                let shown = try await http.execute(uri: "/admin/mail/\(id)", method: .get, headers: auth)
                let detail = try JSONSerialization.jsonObject(with: Data(buffer: shown.body)) as? [String: Any]
                #expect(detail?["body"] as? String == ".a stuffed line\r\n")
                #expect((detail?["raw"] as? String)?.contains("Subject: Over the wire") == true)
                #expect((detail?["headers"] as? [[String: String]])?.contains { $0["name"] == "From" } == true)
                #expect(try await http.execute(uri: "/admin/mail/nothing", method: .get, headers: auth).status == .notFound)
                #expect(try await http.execute(uri: "/admin/mail", method: .get).status == .unauthorized)
            }
        }
    }
}
