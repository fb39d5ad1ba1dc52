import AppleIDEmailSources
import AppleIDProtocol
import Foundation
import Testing

@testable import AppleIDProvider
@testable import AppleIDRelay

/// DKIM as a pluggable check on e-mail sources (spec §11): off until a source has a key; then its
/// mail must carry a DKIM-Signature (RFC 6376) that verifies with that key. The vectors were signed by
/// dkimpy, an independent implementation (Tests/Fixtures/README.md).
@Suite("DKIM on e-mail sources (RFC 6376)")
struct DKIMVerificationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dkim")
    static func fixture(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: fixtures.appendingPathComponent(name))) }
    static func record() throws -> String { String(decoding: try fixture("selector1._domainkey.shop.example.txt"), as: UTF8.self) }
    static let canonicalizations = ["relaxed-simple", "simple-simple", "relaxed-relaxed", "simple-relaxed"]

    /// The relay harness, with `shop.example` a source of team A that registered the vectors' key.
    static func relayWithKey() async throws -> RelayHarness {
        let relay = try await RelayHarness.make()
        _ = try await relay.harness.provider.addEmailSources("shop.example", teamID: "TEAMAAAAAA")
        _ = try await relay.harness.provider.setDKIMKey(try record(), forEmailSource: "shop.example", teamID: "TEAMAAAAAA")
        return relay
    }

    @Test("a message signed by dkimpy verifies with the registered key, in each canonicalization", arguments: canonicalizations)
    func signedVerifies(canonicalization: String) async throws {
        let relay = try await Self.relayWithKey()
        let signed = try Self.fixture("signed-\(canonicalization).eml")
        #expect(try await relay.send(from: "orders@shop.example", to: relay.relayAddress, source: signed) == (250, 250))
        #expect(try await relay.relay.mailbox(accountID: relay.accountID).first?.message.subject == "Your   order")
    }

    @Test("unsigned, tampered or foreign-signed mail from a source with a key is refused at DATA: 550 5.7.20, and not stored")
    func refusedWithoutValidSignature() async throws {
        let relay = try await Self.relayWithKey()
        let signed = String(decoding: try Self.fixture("signed-relaxed-simple.eml"), as: UTF8.self)
        let unsigned = Array(signed[signed.range(of: "From: ")!.lowerBound...].utf8)
        let changedBody = Array(signed.replacingOccurrences(of: "on its way", with: "delayed").utf8)
        let changedSubject = Array(signed.replacingOccurrences(of: "Subject:   Your   order", with: "Subject: Pay now").utf8)
        for (name, source) in [("unsigned", unsigned), ("changed body", changedBody), ("changed subject", changedSubject)] {
            let answer = try await relay.send(from: "orders@shop.example", to: relay.relayAddress, source: source)
            #expect(answer.rcpt == 250, "\(name): RCPT cannot see the message yet")
            #expect(answer.data == 550, "\(name)")
        }
        let reply = try await relay.relay.accept(sender: "orders@shop.example", recipients: [relay.relayAddress], source: unsigned)
        #expect(reply.lines[0].hasPrefix("5.7.20 "))
        #expect(reply.lines[0].contains("DKIM"))
        #expect(try await relay.relay.mailbox(accountID: relay.accountID).isEmpty)
        // A signature made for shop.example does not cover mail from another domain.
        _ = try await relay.harness.provider.addEmailSources("other.example", teamID: "TEAMAAAAAA")
        _ = try await relay.harness.provider.setDKIMKey(try Self.record(), forEmailSource: "other.example", teamID: "TEAMAAAAAA")
        let foreign = try await relay.send(from: "orders@other.example", to: relay.relayAddress, source: try Self.fixture("signed-simple-simple.eml"))
        #expect(foreign.data == 550)
    }

    @Test("the selector (s=) is required (RFC 6376 §3.5), and a refusal names it: the key registered is the one it must match")
    func selectorRequiredAndNamed() async throws {
        let relay = try await Self.relayWithKey()
        let signed = String(decoding: try Self.fixture("signed-relaxed-simple.eml"), as: UTF8.self)
        let withoutSelector = Array(signed.replacingOccurrences(of: " s=selector1;", with: "").utf8)
        let missing = try await relay.relay.accept(sender: "orders@shop.example", recipients: [relay.relayAddress], source: withoutSelector)
        #expect(missing.code == 550)
        #expect(missing.lines[0].contains("malformed (no s=)"), "\(missing.lines)")
        let changedBody = Array(signed.replacingOccurrences(of: "on its way", with: "delayed").utf8)
        let failed = try await relay.relay.accept(sender: "orders@shop.example", recipients: [relay.relayAddress], source: changedBody)
        #expect(failed.code == 550)
        #expect(failed.lines[0].contains("s=selector1"), "\(failed.lines)")
    }

    @Test("DKIM is off by default: a source without a key takes unsigned mail; removing the key turns the check off again")
    func offByDefault() async throws {
        let relay = try await Self.relayWithKey()
        #expect(try await relay.send(to: relay.relayAddress) == (250, 250), "example.com has no key")
        let unsigned = Array("From: <orders@shop.example>\r\nSubject: Hi\r\n\r\nHi\r\n".utf8)
        #expect(try await relay.send(from: "orders@shop.example", to: relay.relayAddress, source: unsigned).data == 550)
        _ = try await relay.harness.provider.setDKIMKey(nil, forEmailSource: "shop.example", teamID: "TEAMAAAAAA")
        #expect(try await relay.send(from: "orders@shop.example", to: relay.relayAddress, source: unsigned) == (250, 250))
    }

    @Test("a key is taken as its DNS record, PEM or base64; anything else, or a key under 1024 bits, is refused")
    func keyFormats() async throws {
        let relay = try await RelayHarness.make()
        let provider = relay.harness.provider
        let record = try Self.record()
        let base64 = String(record[record.range(of: "p=")!.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
        let pem = "-----BEGIN PUBLIC KEY-----\n\(base64)\n-----END PUBLIC KEY-----\n"
        for text in [record, base64, pem] {
            let sources = try await provider.setDKIMKey(text, forEmailSource: "example.com", teamID: "TEAMAAAAAA")
            #expect(sources.first { $0.value == "example.com" }?.dkimPublicKey == base64)
        }
        await #expect(throws: ConsoleError.self) {
            try await provider.setDKIMKey("v=DKIM1; p=bm90IGEga2V5", forEmailSource: "example.com", teamID: "TEAMAAAAAA")
        }
        // A 512-bit key (openssl genrsa 512): swift-crypto will not even make one.
        let small = "MFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBAMaZ7pKq+FMd7JeoFQxXY9R5BbBwKK8KkTpVBmtFWm7qqNEvTk09XHSdA4iNhkWfPBoPYQeKQCpRnL+tUIBJKY8CAwEAAQ=="
        await #expect(throws: ConsoleError.self) { try await provider.setDKIMKey(small, forEmailSource: "example.com", teamID: "TEAMAAAAAA") }
        await #expect(throws: ConsoleError.self) { try await provider.setDKIMKey(base64, forEmailSource: "unknown.example", teamID: "TEAMAAAAAA") }
    }
}
