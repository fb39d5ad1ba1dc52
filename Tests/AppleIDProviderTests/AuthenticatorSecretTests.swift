import AppleIDProvider
import Crypto
import Foundation
import Testing

/// demo.json's `totp_secret` is for an authenticator app: the app must show the codes the server
/// accepts. An authenticator base32-decodes the secret and computes RFC 6238 (HMAC-SHA1, 30 s, 6
/// digits); this test does the same, independently of HummingbirdOTP.
@Suite("Two-factor: the secret given to authenticator apps yields the server's codes")
struct AuthenticatorSecretTests {
    /// What an authenticator app does with a base32 secret at `date`.
    static func authenticatorCode(base32 secret: String, at date: Date) throws -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var key: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in secret {
            let value = try #require(alphabet.firstIndex(of: character))
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                key.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        let counter = UInt64(date.timeIntervalSince1970 / 30)
        let message = withUnsafeBytes(of: counter.bigEndian, Array.init)
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        let offset = Int(mac[19] & 0x0F)
        let number = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        return String(format: "%06d", number % 1_000_000)
    }

    @Test("RFC 6238's SHA-1 vector: the key 12345678901234567890 at 59 s")
    func rfcVector() throws {
        let secret = "12345678901234567890"
        #expect(Credentials.authenticatorSecret(for: secret) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(Credentials.currentCode(secret: secret, at: Date(timeIntervalSince1970: 59)) == "287082")
        #expect(try Self.authenticatorCode(base32: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", at: Date(timeIntervalSince1970: 59)) == "287082")
    }

    @Test("a stored secret like the seed's: the app, given authenticatorSecret, shows the code the server accepts", arguments: [0, 1, 2, 3])
    func seededSecret(_ sample: Int) throws {
        let stored = ["JBSWY3DPEHPK3PXPABCD", "ABCDEFGHIJKLMNOPQRST", "234567ZYXWVUTSRQPONM", "A"][sample]
        let date = Date(timeIntervalSince1970: 1_763_900_000 + Double(sample) * 997)
        let app = try Self.authenticatorCode(base32: Credentials.authenticatorSecret(for: stored), at: date)
        #expect(app == Credentials.currentCode(secret: stored, at: date))
        // The stored text itself, given to an app, decodes to another key: not what demo.json may carry.
        if stored.count > 1 { #expect(try Self.authenticatorCode(base32: stored, at: date) != app) }
    }
}
