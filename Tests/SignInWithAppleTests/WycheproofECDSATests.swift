import Crypto
import Foundation
import SignInWithApple
import Testing

/// Project Wycheproof's ECDSA P-256 / SHA-256 vectors through the kit's ES256 verification path,
/// ``ClientSecretInspector/isValidES256Signature(_:signingInput:publicKey:)``. The vectors are read
/// from `Tests/Fixtures/wycheproof` at test time.
@Suite("Wycheproof ECDSA P-256 SHA-256 through the kit's ES256 verification")
struct WycheproofECDSATests {
    @Test("IEEE P1363 (raw R||S) vectors: every valid one accepted, every invalid one refused")
    func p1363() throws {
        let file = try WycheproofFile.load("ecdsa_secp256r1_sha256_p1363_test.json")
        var counts: [String: Int] = [:]
        var acceptable: [(id: Int, accepted: Bool)] = []
        for group in file.testGroups {
            let key = try #require(group.key, "group key \(group.publicKey.uncompressed) is not a P-256 point")
            for test in group.tests {
                let accepted = ClientSecretInspector.isValidES256Signature(
                    WycheproofFile.hex(test.sig), signingInput: WycheproofFile.hex(test.msg), publicKey: key)
                counts[test.result, default: 0] += 1
                switch test.result {
                case "valid": #expect(accepted, "tcId \(test.tcId) (\(test.comment)) is valid but was refused")
                case "invalid": #expect(!accepted, "tcId \(test.tcId) (\(test.comment), \(test.flags)) is invalid but was accepted")
                default: acceptable.append((test.tcId, accepted))
                }
            }
        }
        #expect(counts.values.reduce(0, +) == file.numberOfTests)
        #expect(counts["valid"] == 173)
        #expect(counts["invalid"] == 89)
        print(
            "Wycheproof P1363: \(file.numberOfTests) tests, \(counts["valid"] ?? 0) valid accepted, "
                + "\(counts["invalid"] ?? 0) invalid refused, \(acceptable.count) acceptable \(acceptable)")
    }

    @Test("DER vectors: none accepted, since Apple requires raw R||S")
    func der() throws {
        let file = try WycheproofFile.load("ecdsa_secp256r1_sha256_test.json")
        var accepted: [Int] = []
        var validDER = 0
        var validDERVerified = 0
        for group in file.testGroups {
            let key = try #require(group.key, "group key \(group.publicKey.uncompressed) is not a P-256 point")
            for test in group.tests {
                let signature = WycheproofFile.hex(test.sig)
                let message = WycheproofFile.hex(test.msg)
                if ClientSecretInspector.isValidES256Signature(signature, signingInput: message, publicKey: key) {
                    accepted.append(test.tcId)
                }
                // The vectors are read correctly: swift-crypto's own DER path accepts the valid ones.
                if test.result == "valid" {
                    validDER += 1
                    if let der = try? P256.Signing.ECDSASignature(derRepresentation: signature),
                        key.isValidSignature(der, for: SHA256.hash(data: message))
                    {
                        validDERVerified += 1
                    }
                }
            }
        }
        #expect(accepted.isEmpty, "DER test cases accepted as ES256: \(accepted)")
        #expect(validDER == 174)
        #expect(validDERVerified == validDER, "the DER vectors were not read correctly")
        print("Wycheproof DER: \(file.numberOfTests) tests, 0 accepted as ES256 (\(validDER) valid DER signatures refused)")
    }
}

/// One Wycheproof ECDSA verify file (the fields these tests use).
private struct WycheproofFile: Decodable {
    struct Group: Decodable {
        struct PublicKey: Decodable {
            var uncompressed: String
        }
        var publicKey: PublicKey
        var tests: [WycheproofSignatureCase]

        var key: P256.Signing.PublicKey? {
            try? P256.Signing.PublicKey(x963Representation: WycheproofFile.hex(publicKey.uncompressed))
        }
    }

    var numberOfTests: Int
    var testGroups: [Group]

    static let directory = VerifierSupport.vectorsRoot.appendingPathComponent("wycheproof")

    static func load(_ name: String) throws -> WycheproofFile {
        try JSONDecoder().decode(WycheproofFile.self, from: Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for character in text.utf8 {
            let nibble: UInt8 =
                switch character {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
                default: character - UInt8(ascii: "A") + 10
                }
            if let value = high {
                bytes.append(value << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }
}
