import Crypto
import Foundation
import RS256OpenSSL
import RS256Signing
import Testing
import _CryptoExtras

@Suite("RS256 signers: OpenSSL's libcrypto and swift-crypto give the same bytes")
struct RS256SignerTests {
    static let vectors = (try? WycheproofRS256Vector.load()) ?? []
    static let signers = RS256Signers.available.map(NamedSigner.init)

    struct NamedSigner: Sendable, CustomTestStringConvertible {
        let signer: any RS256Signer
        var testDescription: String { signer.name }
    }

    @Test("the fixture holds Wycheproof's eight valid RS256 signatures with their private keys")
    func fixture() throws {
        #expect(try WycheproofRS256Vector.load().count == 8)
    }

    @Test("a signer reproduces every Wycheproof RS256 signature byte for byte", arguments: signers)
    func vectors(_ named: NamedSigner) throws {
        for vector in Self.vectors {
            let key = try named.signer.loadKey(derRepresentation: vector.privateKeyDER)
            #expect(try key.signature(for: vector.signingInput) == vector.signature, "tcId \(vector.tcId)")
        }
    }

    #if os(Linux) && OpenSSLSigner
    @Test("a Linux build with the OpenSSLSigner trait signs with libcrypto on a CPU with IFMA, with swift-crypto without, and keeps both")
    func linuxPrefersOpenSSLWithIFMA() {
        let withIFMA = RS256Signers.fastest(cpuFlags: ["avx2", "avx512f", "avx512ifma"])
        #expect(withIFMA.name.hasPrefix("OpenSSL 3"), "\(withIFMA.name)")
        #expect(RS256Signers.fastest(cpuFlags: ["avx2", "avx512f"]).name == SwiftCryptoRS256Signer().name)
        #expect(RS256Signers.fastest.name == RS256Signers.fastest(cpuFlags: CPUFlags.current).name)
        #expect(RS256Signers.available.map(\.name).contains(SwiftCryptoRS256Signer().name))
        #expect(RS256Signers.available.count == 2)
    }
    #endif

    @Test("every signer gives the same signature for the same key and message")
    func byteIdentical() throws {
        let reference = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let der = Array(reference.derRepresentation)
        let keys = try RS256Signers.available.map { try $0.loadKey(derRepresentation: der) }
        for size in [0, 1, 64, 600, 4096] {
            let message = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ size) }
            let expected = try reference.signature(for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5)
            for key in keys {
                #expect(try key.signature(for: message) == Array(expected.rawRepresentation), "\(size) bytes")
            }
        }
    }

    @Test("a signature from one signer verifies with the other library", arguments: signers)
    func crossVerification(_ named: NamedSigner) throws {
        let reference = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let message = Array("eyJraWQiOiJrIiwiYWxnIjoiUlMyNTYifQ.eyJpc3MiOiJ4In0".utf8)
        let signature = try named.signer.loadKey(derRepresentation: Array(reference.derRepresentation)).signature(for: message)
        #expect(
            reference.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5))
        #if OpenSSLSigner && canImport(CLibCrypto)
        #expect(try LibCryptoVerifier.verifies(signature, message: message, publicKeyDER: Array(reference.publicKey.derRepresentation)))
        var tampered = signature
        tampered[0] ^= 1
        #expect(try !LibCryptoVerifier.verifies(tampered, message: message, publicKeyDER: Array(reference.publicKey.derRepresentation)))
        #endif
    }

    @Test("a key that is not an RSA private key in DER is refused", arguments: signers)
    func refusesOtherKeys(_ named: NamedSigner) throws {
        let ecKey = Array(P256.Signing.PrivateKey().derRepresentation)
        #expect(throws: RS256SigningError.unreadableKey) { try named.signer.loadKey(derRepresentation: ecKey) }
        #expect(throws: RS256SigningError.unreadableKey) { try named.signer.loadKey(derRepresentation: [0x30, 0x03, 0x02, 0x01]) }
        let publicOnly = Array(try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey.derRepresentation)
        #expect(throws: RS256SigningError.unreadableKey) { try named.signer.loadKey(derRepresentation: publicOnly) }
    }

    @Test("one loaded key signs from many tasks at once, each signature right", arguments: signers)
    func concurrentSigning(_ named: NamedSigner) async throws {
        let vector = try #require(Self.vectors.first)
        let key = try named.signer.loadKey(derRepresentation: vector.privateKeyDER)
        let wrong = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try (0..<16).count { _ in try key.signature(for: vector.signingInput) != vector.signature }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }
}
