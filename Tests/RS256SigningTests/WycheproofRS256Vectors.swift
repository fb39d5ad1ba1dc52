import Foundation
import Testing
import _CryptoExtras

/// The RS256 signatures of Wycheproof's JWS vectors (Tests/Fixtures/wycheproof) that come with
/// their private key: the valid ones, 2048-bit, including RFC 7520's figure 13. PKCS#1 v1.5 is
/// deterministic, so a signer must reproduce each signature exactly.
struct WycheproofRS256Vector: Sendable, CustomTestStringConvertible {
    let tcId: Int
    let privateKeyDER: [UInt8]
    let signingInput: [UInt8]
    let signature: [UInt8]

    var testDescription: String { "tcId \(tcId)" }

    static func load() throws -> [WycheproofRS256Vector] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/wycheproof/json_web_signature_test.json")
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        return try file.testGroups.filter { $0.private?.alg == "RS256" && $0.private?.d != nil }.flatMap { group in
            let jwk = group.private!  // filtered above
            let key = try _RSA.Signing.PrivateKey(
                n: decode(jwk.n), e: decode(jwk.e), d: decode(jwk.d!), p: decode(jwk.p!), q: decode(jwk.q!))
            return try group.tests.filter { $0.result == "valid" }.map { test in
                let parts = test.jws.split(separator: ".", omittingEmptySubsequences: false)
                return WycheproofRS256Vector(
                    tcId: test.tcId, privateKeyDER: Array(key.derRepresentation),
                    signingInput: Array(parts[0...1].joined(separator: ".").utf8), signature: try decode(String(parts[2])))
            }
        }
    }

    /// base64url without padding (RFC 7515 §2).
    static func decode(_ text: String) throws -> [UInt8] {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { throw DecodingError.notBase64URL(text) }
        return Array(data)
    }

    enum DecodingError: Error { case notBase64URL(String) }

    struct File: Decodable {
        struct Group: Decodable {
            struct JWK: Decodable {
                let alg: String?
                let n, e: String
                let d, p, q: String?
            }
            let `private`: JWK?
            let tests: [Test]

            enum CodingKeys: String, CodingKey {
                case `private`
                case tests
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                // Groups with HMAC or EC keys have no `n`: they are not RS256 and are skipped.
                self.private = try? container.decodeIfPresent(JWK.self, forKey: .private)
                self.tests = try container.decode([Test].self, forKey: .tests)
            }
        }
        struct Test: Decodable {
            let tcId: Int
            let result: String
            let jws: String
        }
        let testGroups: [Group]
    }
}
