import AppleIDProtocol
import Crypto
import Foundation
import Testing
import _CryptoExtras

@testable import SignInWithApple

/// Errors that explain: what a developer reads when Apple refuses, a nonce does not match or a key
/// does not load.
@Suite("Errors that explain")
struct ErrorExplanationTests {
    static func client(teamID: String = "TEAM123456", keyID: String = "KEY1234567", answer: String, status: Int) throws -> AppleTokenClient {
        let credentials = AppleCredentials(teamID: teamID, keyID: keyID, privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation)
        let secrets = try ClientSecretProvider(credentials: credentials, clientID: "com.example.web", environment: .production)
        return AppleTokenClient(
            environment: .production, secrets: secrets, transport: TokenClientTests.ScriptedTransport([TokenClientTests.status(status, answer)]),
            retry: .none)
    }

    static func description(of body: () async throws -> some Any) async -> String {
        String(describing: await VerifierSupport.failure(of: body))
    }

    /// The refusal a call threw, or nil.
    static func refusal(of body: () async throws -> some Any) async -> AppleRefusal? {
        guard let refusal = (await VerifierSupport.failure(of: body) as? AppleServiceError)?.refusal else { return nil }
        return refusal
    }

    @Test("invalid_client with a Team ID that is not one explains the iss")
    func invalidClientWrongTeamID() async throws {
        let client = try Self.client(teamID: "com.example", answer: #"{"error":"invalid_client"}"#, status: 400)
        let text = await Self.description { try await client.exchange(code: "c1", redirectURI: nil) }
        #expect(text.contains("iss"))
        #expect(text.contains("Team ID"))
        let refusal = try #require(await Self.refusal { try await client.exchange(code: "c1", redirectURI: nil) })
        #expect(refusal.code == .invalidClient)
        #expect(refusal.clientSecretReport?.failures.map(\.id) == [.issuer])
        #expect(refusal.likelyCauses.first == #"the client secret's iss fails: iss "com.example" has 11 characters; a Team ID has 10"#)
    }

    @Test("invalid_client with a Key ID that is not one explains the kid, on refresh and revoke too")
    func invalidClientWrongKeyID() async throws {
        let client = try Self.client(keyID: "AuthKey_KEY1234567", answer: #"{"error":"invalid_client"}"#, status: 401)
        for refusal in [
            await Self.refusal { try await client.refresh(refreshToken: "r1") }, await Self.refusal { try await client.revoke(token: "r1") },
        ] {
            #expect(refusal?.status == 401)
            #expect(refusal?.clientSecretReport?.failures.map(\.id) == [.keyID])
            #expect(refusal?.likelyCauses.first?.hasPrefix("the client secret's kid fails") == true)
        }
    }

    @Test("invalid_client with a secret that passes every local rule names what only Apple can check")
    func invalidClientLocallyValid() async throws {
        let client = try Self.client(answer: #"{"error":"invalid_client"}"#, status: 400)
        let text = await Self.description { try await client.exchange(code: "c1", redirectURI: nil) }
        #expect(text.contains("KEY1234567"))
        #expect(text.contains("com.example.web"))
        let refusal = try #require(await Self.refusal { try await client.exchange(code: "c1", redirectURI: nil) })
        #expect(refusal.clientSecretReport?.passed == true)
        #expect(
            refusal.description.hasPrefix(
                """
                Apple refused the request (400): invalid_client
                Likely causes:
                  - Key ID KEY1234567 is not a Sign in with Apple key of team TEAM123456, or it was revoked
                """))
    }

    @Test("invalid_grant on a code exchange explains single use and the 5 minutes")
    func invalidGrantCode() async throws {
        let answer = #"{"error":"invalid_grant","error_description":"The code has expired or has been revoked."}"#
        let text = await Self.description { try await Self.client(answer: answer, status: 400).exchange(code: "c1", redirectURI: nil) }
        #expect(text.contains("single-use"))
        #expect(text.contains("5 minutes"))
        let refusal = try #require(await Self.refusal { try await Self.client(answer: answer, status: 400).exchange(code: "c1", redirectURI: nil) })
        #expect(refusal.errorDescription == "The code has expired or has been revoked.", "Apple's words are kept verbatim")
        #expect(refusal.likelyCauses.first?.hasPrefix("the code expired or was already used") == true)
    }

    @Test("invalid_grant on a refresh says the token was revoked")
    func invalidGrantRefresh() async throws {
        let answer = #"{"error":"invalid_grant","error_description":"The token has expired or has been revoked."}"#
        let refusal = try #require(await Self.refusal { try await Self.client(answer: answer, status: 400).refresh(refreshToken: "r1") })
        #expect(refusal.likelyCauses.first?.hasPrefix("the refresh token was revoked") == true)
    }

    @Test("other refusals carry Apple's words and no invented causes")
    func otherRefusal() async throws {
        let answer = #"{"error":"unsupported_grant_type"}"#
        let refusal = try #require(await Self.refusal { try await Self.client(answer: answer, status: 400).refresh(refreshToken: "r1") })
        #expect(refusal == AppleRefusal(code: .unsupportedGrantType, errorDescription: nil, status: 400))
        #expect(refusal.description == "Apple refused the request (400): unsupported_grant_type")
    }

    @Test("invalid_grant for a client_id mismatch explains native codes and Services IDs")
    func invalidGrantClientID() async throws {
        let answer = #"{"error":"invalid_grant","error_description":"client_id mismatch. The code was not issued to com.example.web."}"#
        let text = await Self.description { try await Self.client(answer: answer, status: 400).exchange(code: "c1", redirectURI: nil) }
        #expect(text.contains("bundle ID"))
        #expect(text.contains("Services ID"))
        let refusal = try #require(await Self.refusal { try await Self.client(answer: answer, status: 400).exchange(code: "c1", redirectURI: nil) })
        #expect(refusal.likelyCauses.count == 1)
    }

    @Test("invalid_grant for a redirect_uri mismatch explains the exact match")
    func invalidGrantRedirectURI() async throws {
        let answer = #"{"error":"invalid_grant","error_description":"redirect_uri mismatch. The code was not issued to https://x.example/cb."}"#
        let text = await Self.description {
            try await Self.client(answer: answer, status: 400).exchange(code: "c1", redirectURI: "https://x.example/cb")
        }
        #expect(text.contains("exactly"))
    }

    @Test("a token carrying the SHA-256 of the raw nonce given says to use the sha256 convention")
    func nonceHashedButPlainExpected() async {
        let token = AttackTokenTests.withNonce(AttackTokenTests.sha256Hex("raw-nonce-42"), supported: true)
        let text = await Self.description { try await AttackTokenTests.verifier().verify(token, nonce: Nonce(raw: "raw-nonce-42")) }
        #expect(text.contains("SHA-256"))
        #expect(text.contains(".sha256"))
        let error = await VerifierSupport.failure { try await AttackTokenTests.verifier().verify(token, nonce: Nonce(raw: "raw-nonce-42")) }
        #expect(error as? IdentityTokenError == .nonceConventionMismatch(expected: .plain))
    }

    @Test("a token carrying the raw nonce while its hash was expected says to use the plain convention")
    func nonceRawButHashExpected() async {
        let token = AttackTokenTests.withNonce("raw-nonce-42", supported: true)
        let text = await Self.description {
            try await AttackTokenTests.verifier().verify(token, nonce: Nonce(raw: "raw-nonce-42", convention: .sha256))
        }
        #expect(text.contains("raw"))
        #expect(text.contains(".plain"))
        let error = await VerifierSupport.failure {
            try await AttackTokenTests.verifier().verify(token, nonce: Nonce(raw: "raw-nonce-42", convention: .sha256))
        }
        #expect(error as? IdentityTokenError == .nonceConventionMismatch(expected: .sha256))
    }

    struct KeyCase: Sendable, CustomTestStringConvertible {
        let name: String
        let pem: @Sendable () -> String
        let mentions: String
        let error: PrivateKeyError
        var testDescription: String { name }
    }

    static let p8 = P256.Signing.PrivateKey().pemRepresentation
    static let keyCases: [KeyCase] = [
        KeyCase(
            name: "escaped \\n", pem: { p8.replacingOccurrences(of: "\n", with: "\\n") }, mentions: #"\n"#, error: .escapedNewlines),
        KeyCase(
            name: "base64 without the PEM armour",
            pem: { p8.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined() }, mentions: "armour", error: .missingPEMArmour),
        KeyCase(
            name: "a file path", pem: { "/secrets/AuthKey_KEY1234567.p8" }, mentions: "file path",
            error: .filePath("/secrets/AuthKey_KEY1234567.p8")),
        KeyCase(name: "a P-384 key", pem: { P384.Signing.PrivateKey().pemRepresentation }, mentions: "P-384", error: .wrongCurve("P-384")),
        KeyCase(
            name: "a public key", pem: { P256.Signing.PrivateKey().publicKey.pemRepresentation }, mentions: "public key", error: .publicKey),
        KeyCase(name: "an RSA key (PKCS#1)", pem: { VerifierSupport.key1.pemRepresentation }, mentions: "RSA", error: .rsaKey),
        KeyCase(name: "an RSA key (PKCS#8)", pem: { VerifierSupport.key1.pkcs8PEMRepresentation }, mentions: "RSA", error: .rsaKey),
        KeyCase(name: "an empty string", pem: { "" }, mentions: "AuthKey_<KeyID>.p8", error: .unreadable),
    ]

    @Test("a private key that does not load names the problem", arguments: keyCases)
    func keyLoading(_ keyCase: KeyCase) async {
        let credentials = AppleCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: keyCase.pem())
        let text = await Self.description {
            try ClientSecretProvider(credentials: credentials, clientID: "com.example.web", environment: .production)
        }
        #expect(text.contains(keyCase.mentions), "\(text)")
        #expect(throws: keyCase.error) { try credentials.signingKey() }
    }

    @Test("a good .p8, with or without surrounding whitespace, loads")
    func goodKey() throws {
        let key = P256.Signing.PrivateKey()
        for pem in [key.pemRepresentation, "\n" + key.pemRepresentation + "\n\n"] {
            let credentials = AppleCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: pem)
            #expect(try credentials.signingKey().publicKey.rawRepresentation == key.publicKey.rawRepresentation)
        }
    }
}
