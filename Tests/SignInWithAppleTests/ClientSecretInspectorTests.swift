import AppleIDProtocol
import Crypto
import Foundation
import SignInWithApple
import Testing

@Suite("Client secret inspector: every rule of spec §5")
struct ClientSecretInspectorTests {
    static let key = P256.Signing.PrivateKey()
    static let otherKey = P256.Signing.PrivateKey()
    static let teamID = "TEAM123456"
    static let keyID = "KEY1234567"
    static let clientID = "com.example.app.web"
    static let issuedAt = 1_795_240_800
    /// The inspection happens a minute after minting.
    static let now = issuedAt + 60

    static func inspector(key: ClientSecretInspector.Key? = .privateKeyPEM(key.pemRepresentation)) throws -> ClientSecretInspector {
        try ClientSecretInspector(
            key: key, clientID: clientID, teamID: teamID, keyID: keyID,
            clock: { Date(timeIntervalSince1970: TimeInterval(now)) })
    }

    static func minted(lifetime: Int = 180 * 86_400) async throws -> String {
        let minter = try ClientSecretMinter(teamID: TeamID(rawValue: teamID), keyID: KeyID(rawValue: keyID), privateKeyPEM: key.pemRepresentation)
        return try await minter.mint(
            clientID: ClientID(rawValue: clientID), issuedAt: Date(timeIntervalSince1970: TimeInterval(issuedAt)), lifetime: lifetime)
    }

    @Test("a secret minted by ClientSecretMinter passes every rule")
    func mintedPasses() async throws {
        let report = try Self.inspector().inspect(try await Self.minted())
        #expect(report.passed, "failed: \(report.failures)")
        #expect(report.rules.map(\.id) == ClientSecretInspector.RuleID.allCases)
        #expect(report.header?.algorithm == "ES256")
        #expect(report.header?.keyID == Self.keyID)
        #expect(report.claims?.issuer == Self.teamID)
        #expect(report.claims?.subject == Self.clientID)
        #expect(report.claims?.audience == "https://appleid.apple.com")
        #expect(report.claims?.expiresAt == Self.issuedAt + 180 * 86_400)
        // Apple measures the maximum from its own clock: the secret was minted a minute ago.
        #expect(report[.lifetime]?.explanation == "exp is 180.0 days from now (15,551,940 s); Apple's maximum is 182.6 days (15,777,000 s)")
        #expect(report[.signatureEncoding]?.explanation == "raw R||S, 64 bytes")
    }

    @Test("the public key PEM checks the signature as the .p8 does; without a key the signature is not checked")
    func keyChoices() async throws {
        let secret = try await Self.minted()
        #expect(try Self.inspector(key: .publicKeyPEM(Self.key.publicKey.pemRepresentation)).inspect(secret).passed)
        let unchecked = try Self.inspector(key: nil).inspect(secret)
        #expect(unchecked.failures.map(\.id) == [.signature])
        #expect(unchecked[.signature]?.explanation.hasPrefix("not checked") == true)
        #expect(throws: ClientSecretInspector.KeyError.notAP256Key) { try Self.inspector(key: .publicKeyPEM("not a key")) }
    }

    /// One way of breaking exactly one rule.
    enum Breakage: String, CaseIterable, CustomTestStringConvertible {
        case wrongAlgorithm, missingKeyID, wrongIssuer, wrongSubject, wrongAudience, expired, issuedInTheFuture, lifetime15777001
        case badSignature, derSignature

        var testDescription: String { rawValue }

        var brokenRule: ClientSecretInspector.RuleID {
            switch self {
            case .wrongAlgorithm: .algorithm
            case .missingKeyID: .keyID
            case .wrongIssuer: .issuer
            case .wrongSubject: .subject
            case .wrongAudience: .audience
            case .expired: .expiry
            case .issuedInTheFuture: .issuedAt
            case .lifetime15777001: .lifetime
            case .badSignature: .signature
            case .derSignature: .signatureEncoding
            }
        }

        var secret: String {
            let now = ClientSecretInspectorTests.now
            var header: [String: Any] = ["alg": "ES256", "kid": ClientSecretInspectorTests.keyID]
            var claims: [String: Any] = [
                "iss": ClientSecretInspectorTests.teamID, "iat": ClientSecretInspectorTests.issuedAt,
                "exp": ClientSecretInspectorTests.issuedAt + 3600, "aud": "https://appleid.apple.com", "sub": ClientSecretInspectorTests.clientID,
            ]
            switch self {
            case .wrongAlgorithm: header["alg"] = "ES384"
            case .missingKeyID: header["kid"] = nil
            case .wrongIssuer: claims["iss"] = "OTHERTEAM1"
            case .wrongSubject: claims["sub"] = "com.example.App.web"
            case .wrongAudience: claims["aud"] = "https://appleid.apple.com/"
            case .expired: (claims["iat"], claims["exp"]) = (now - 7200, now - 1)
            case .issuedInTheFuture: (claims["iat"], claims["exp"]) = (now + 600, now + 4200)
            case .lifetime15777001: claims["exp"] = now + 15_777_001
            case .badSignature, .derSignature: break
            }
            let signingInput = Self.segment(header) + "." + Self.segment(claims)
            let signer = self == .badSignature ? ClientSecretInspectorTests.otherKey : ClientSecretInspectorTests.key
            // Signing with a freshly generated P-256 key cannot fail.
            let signature = try! signer.signature(for: Array(signingInput.utf8))
            let bytes = self == .derSignature ? Array(signature.derRepresentation) : Array(signature.rawRepresentation)
            return signingInput + "." + Base64URL.encode(bytes)
        }

        static func segment(_ object: [String: Any]) -> String {
            // Dictionaries of strings and integers always serialize.
            Base64URL.encode(Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
        }
    }

    @Test("breaking one rule fails exactly that rule", arguments: Breakage.allCases)
    func breakage(_ breakage: Breakage) throws {
        let report = try Self.inspector().inspect(breakage.secret)
        #expect(report.failures.map(\.id) == [breakage.brokenRule], "\(report.failures)")
        #expect(!report.passed)
    }

    @Test("the explanations name the values")
    func explanations() throws {
        let inspector = try Self.inspector()
        #expect(
            inspector.inspect(Breakage.derSignature.secret)[.signatureEncoding]?.explanation
                == "DER-encoded signature; Apple requires raw R||S (64 bytes)")
        #expect(
            inspector.inspect(Breakage.lifetime15777001.secret)[.lifetime]?.explanation
                == "exp is 182.6 days from now (15,777,001 s); Apple's maximum is 182.6 days (15,777,000 s)")
        #expect(inspector.inspect(Breakage.wrongAlgorithm.secret)[.algorithm]?.explanation == "alg is \"ES384\"; Apple requires ES256")
        #expect(inspector.inspect(Breakage.missingKeyID.secret)[.keyID]?.explanation.hasPrefix("kid is missing") == true)
        #expect(inspector.inspect(Breakage.expired.secret)[.expiry]?.explanation.hasPrefix("expired 1 s ago") == true)
        let garbage = inspector.inspect("not-a-jwt")
        #expect(garbage[.structure]?.explanation == "a compact JWS has 3 segments, found 1")
        #expect(garbage.header == nil && garbage.claims == nil)
    }

    @Test("times outside 1970 to 9999 fail their rule before any arithmetic: no trap on Int.min or Int.max")
    func extremeTimes() throws {
        func secret(iat: Int, exp: Int) -> String {
            let header = Breakage.segment(["alg": "ES256", "kid": Self.keyID])
            let claims = Breakage.segment(["iss": Self.teamID, "sub": Self.clientID, "aud": "https://appleid.apple.com", "iat": iat, "exp": exp])
            return header + "." + claims + "." + Base64URL.encode([UInt8](repeating: 1, count: 64))
        }
        let inspector = try Self.inspector()
        let early = inspector.inspect(secret(iat: Int.min, exp: Self.now + 60))
        #expect(early[.issuedAt]?.passed == false)
        #expect(early[.issuedAt]?.explanation == "iat \(Int.min) is not a time in seconds since 1970 (0 to year 9999)")
        let late = inspector.inspect(secret(iat: Self.now, exp: Int.max))
        #expect(late[.expiry]?.explanation == "exp \(Int.max) is not a time in seconds since 1970 (0 to year 9999)")
        #expect(late[.lifetime]?.passed == false)
    }

    @Test("isValidES256Signature: raw R||S verifies, the same signature in DER does not")
    func es256() throws {
        let input = Array("header.payload".utf8)
        let signature = try Self.key.signature(for: input)
        let publicKey = Self.key.publicKey
        #expect(ClientSecretInspector.isValidES256Signature(Array(signature.rawRepresentation), signingInput: input, publicKey: publicKey))
        #expect(!ClientSecretInspector.isValidES256Signature(Array(signature.derRepresentation), signingInput: input, publicKey: publicKey))
        #expect(!ClientSecretInspector.isValidES256Signature(Array(signature.rawRepresentation), signingInput: input + [0], publicKey: publicKey))
        #expect(
            !ClientSecretInspector.isValidES256Signature(
                Array(signature.rawRepresentation), signingInput: input, publicKey: Self.otherKey.publicKey))
    }
}
