import AppleIDProtocol
import Crypto
import Foundation
import _CryptoExtras

/// The notifications an attacker can make from a genuine one without the server's key (issue 20):
/// re-signed by a key of its own, unsigned, or with `events` changed after signing.
struct ForgedNotification: Sendable {
    /// The genuine notification, read by the one compact-JWS reader.
    let genuine: CompactJWS

    struct Malformed: Error, CustomStringConvertible {
        var description: String { "the server's notification has no events claim" }
    }

    init(genuine jwt: String) throws {
        genuine = try CompactJWS(jwt)
    }

    var encodedHeader: String { String(decoding: genuine.headerSegment, as: UTF8.self) }
    var encodedPayload: String { String(decoding: genuine.payloadSegment, as: UTF8.self) }
    var signature: String { String(decoding: genuine.signatureSegment, as: UTF8.self) }

    /// The same header (the server's `kid`) and claims, signed RS256 by a key `/auth/keys` never published.
    func signedByUnknownKey() throws -> String {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let input = String(decoding: genuine.signingInput, as: UTF8.self)
        let signature = try key.signature(for: SHA256.hash(data: Array(input.utf8)), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }

    /// `{"kid":…,"alg":"none"}`, the same claims, no signature.
    func unsigned() -> String {
        let kid = (try? genuine.header().keyID) ?? ""
        return Base64URL.encode(Array(#"{"kid":"\#(kid)","alg":"none"}"#.utf8)) + "." + encodedPayload + "."
    }

    /// The `events` string with its `event_time` moved by a millisecond, under the original signature.
    func tampered() throws -> String {
        guard var claims = try JSONSerialization.jsonObject(with: Data(try genuine.payloadBytes())) as? [String: Any],
            let events = claims["events"] as? String,
            var event = try JSONSerialization.jsonObject(with: Data(events.utf8)) as? [String: Any]
        else { throw Malformed() }
        event["event_time"] = ((event["event_time"] as? NSNumber)?.int64Value ?? 0) + 1
        claims["events"] = String(decoding: try JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]), as: UTF8.self)
        let changed = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])
        return encodedHeader + "." + Base64URL.encode(Array(changed)) + "." + signature
    }
}
