import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import SQLKit
import Testing

@testable import AppleIDStore

/// A message to several relay addresses is stored with one body for all its copies (issue 35,
/// finding 10): each copy reads back as its own head and the shared body, and the body goes with
/// the last copy.
@Suite("One stored body for the copies of a relayed message")
struct RelayMessageBodySharingTests {
    /// Every byte value, past two chunk boundaries.
    static let body = (0..<(2 * RelayMessageChunk.size + 1_000)).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    static func copy(_ id: String, at offset: TimeInterval) -> AcceptedRelayMail {
        var accepted = StoreConformanceTests.relayed(id, recipient: "\(id)@relay.test", at: offset)
        let received = Array("Subject: original\r\n\r\n".utf8) + body
        accepted.content = RelayMessageContent(
            head: Array("To: <\(id)@relay.test>\r\n\r\n".utf8), received: InMemoryMessage(received), bodyStart: 21, bodyID: "body-1")
        accepted.mail.message.size = accepted.content.count
        return accepted
    }

    /// The shared bodies' stored bytes (base64) and the per-message chunks' rows, in an SQL store.
    static func storedRows(_ store: any ConformingStore) async throws -> (bodyBytes: Int, messageChunks: Int)? {
        guard let sql = store as? SQLStore else { return nil }
        let bodies = try await sql.db.select().column("bytes").from("relay_message_bodies").all()
            .reduce(0) { $0 + (try $1.decode(column: "bytes", as: String.self)).count }
        let chunks = try await sql.db.select().column("bytes").from("relay_message_chunks").all().count
        return (bodies, chunks)
    }

    @Test("three copies read back as their own heads and one body, stored once; the body goes with the last copy", arguments: StoreKind.available)
    func sharedBody(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            try await store.accept([Self.copy("a", at: 0), Self.copy("b", at: 0), Self.copy("c", at: 100)])
            for id in ["a", "b", "c"] {
                #expect(try await store.relayMessageSource(id: id) == Array("To: <\(id)@relay.test>\r\n\r\n".utf8) + Self.body)
            }
            let base64Body = Data(Self.body).base64EncodedString().count
            if let rows = try await Self.storedRows(store) {
                // Base64 in chunks pads each chunk: within a few bytes of one body, far from three.
                #expect(rows.bodyBytes >= base64Body && rows.bodyBytes < base64Body + 16, "\(rows.bodyBytes) for one body of \(base64Body)")
                #expect(rows.messageChunks == 0)
            }

            #expect(try await store.purgeRelayMail(receivedBefore: Fixture.date(50)) == 2)
            #expect(try await store.relayMessageSource(id: "c") == Array("To: <c@relay.test>\r\n\r\n".utf8) + Self.body, "the body stays for c")
            #expect(try await store.relayMessageSource(id: "a") == nil)
            #expect(try await store.purgeRelayMail(receivedBefore: Fixture.date(200)) == 1)
            if let rows = try await Self.storedRows(store) { #expect(rows.bodyBytes == 0, "the last copy took the body") }
        }
    }
}
