import AppleIDProtocol
import Crypto
import Foundation
import Testing
import _CryptoExtras

@testable import AppleIDDevelopmentFaults
@testable import AppleIDProvider

/// Development mode's fault switch (issue 20): the next token response for one client carries the
/// armed defect, once, and only in development mode.
@Suite("Engine: the token fault switch")
struct TokenFaultTests {
    static let client: ClientID = "com.a.app.web"

    static func harness() async throws -> ProviderHarness {
        try await ProviderHarness.make { $0.developmentMode = true }
    }

    /// The id_token of a code redeemed with `fault` armed, as header, claims and the raw parts.
    static func faultyToken(_ fault: TokenFault, harness: ProviderHarness) async throws -> DecodedToken {
        try await harness.provider.armTokenFault(ArmedTokenFault(fault), for: client)
        let tokens = try await harness.redeem(try await harness.code(), secret: try await harness.clientSecret()).get()
        return try DecodedToken(try #require(tokens.idToken), accessToken: tokens.accessToken)
    }

    @Test("each fault of the id_token really has its defect", arguments: TokenFault.allCases.filter(\.corruptsIdentityToken))
    func identityTokenDefect(fault: TokenFault) async throws {
        let harness = try await Self.harness()
        let genuine = try DecodedToken(
            try #require(try await harness.redeem(try await harness.code(), secret: try await harness.clientSecret()).get().idToken))
        let token = try await Self.faultyToken(fault, harness: harness)
        let publicKey = harness.provider.keyRing.activeKey.publicKey
        let claims = token.claims
        switch fault {
        case .unpublishedKey:
            #expect(token.header == genuine.header, "the header names the active key")
            #expect(!token.verifies(with: publicKey))
            #expect(claims.audience == Self.client.rawValue)
        case .algNone:
            #expect(token.header == #"{"kid":"\#(harness.provider.keyRing.activeKeyID.rawValue)","alg":"none"}"#)
            #expect(token.signature.isEmpty)
        case .hs256:
            #expect(token.header.contains(#""alg":"HS256""#))
            let key = SymmetricKey(data: Array(publicKey.pemRepresentation.utf8))
            #expect(HMAC<SHA256>.isValidAuthenticationCode(token.signature, authenticating: Array(token.signingInput.utf8), using: key))
        case .wrongAudience: #expect(claims.audience != Self.client.rawValue)
        case .wrongIssuer: #expect(claims.issuer != "https://id.example.com")
        case .expired: #expect(claims.expiresAt < Int(harness.clock.now().timeIntervalSince1970) - 300)
        case .futureIssuedAt: #expect(claims.issuedAt > Int(harness.clock.now().timeIntervalSince1970) + 300)
        case .wrongNonce: #expect(claims.nonce != nil && claims.nonce != "n")
        case .missingNonce: #expect(claims.nonce == nil)
        case .wrongAccessTokenHash: #expect(claims.accessTokenHash != TokenHash.of(token.accessToken ?? ""))
        case .otherSubject: #expect(claims.subject != genuine.claims.subject)
        case .invalidGrant, .serverError, .timeout: Issue.record("\(fault) does not change the id_token")
        }
        if ![.unpublishedKey, .algNone, .hs256].contains(fault) { #expect(token.verifies(with: publicKey), "only the claim is wrong") }
        if fault != .wrongAccessTokenHash { #expect(claims.accessTokenHash == TokenHash.of(token.accessToken ?? "")) }
    }

    @Test("invalid_grant and a 500 replace the answer, and the code stays redeemable")
    func errorAnswers() async throws {
        let harness = try await Self.harness()
        let secret = try await harness.clientSecret()
        for (fault, status) in [(TokenFault.invalidGrant, 400), (.serverError, 500)] {
            let code = try await harness.code()
            try await harness.provider.armTokenFault(ArmedTokenFault(fault), for: Self.client)
            let refused = try #require(await harness.redeem(code, secret: secret).failure)
            #expect(refused.code == (fault == .invalidGrant ? .invalidGrant : .serverError))
            #expect(refused.statusCode == status)
            #expect(try await harness.redeem(code, secret: secret).get().idToken != nil)
        }
    }

    @Test("a timeout waits the armed delay, then answers genuinely")
    func timeout() async throws {
        let harness = try await Self.harness()
        try await harness.provider.armTokenFault(ArmedTokenFault(.timeout, delay: .zero), for: Self.client)
        let tokens = try await harness.redeem(try await harness.code(), secret: try await harness.clientSecret()).get()
        let token = try DecodedToken(try #require(tokens.idToken))
        #expect(token.verifies(with: harness.provider.keyRing.activeKey.publicKey))
        #expect(try #require(harness.provider.faultSwitch as? TokenFaults).takeArmed(for: Self.client) == nil, "the timeout was taken")
    }

    @Test("a fault is one-shot: of two concurrent token requests exactly one gets it")
    func oneShot() async throws {
        let harness = try await Self.harness()
        let secret = try await harness.clientSecret()
        let codes = [try await harness.code(), try await harness.code()]
        try await harness.provider.armTokenFault(ArmedTokenFault(.serverError), for: Self.client)
        let results = await withTaskGroup(of: Bool.self) { group in
            for code in codes { group.addTask { (await harness.redeem(code, secret: secret).failure) != nil } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 1)
        #expect(try await harness.redeem(try await harness.code(), secret: secret).get().idToken != nil)
    }

    @Test("a fault is scoped to its client: another client's token response is genuine")
    func scopedToClient() async throws {
        let harness = try await Self.harness()
        try await harness.provider.armTokenFault(ArmedTokenFault(.serverError), for: Self.client)
        let other = try await harness.redeem(
            try await harness.code(group: "com.b.app"), group: "com.b.app",
            secret: try await harness.clientSecret(group: "com.b.app", team: ProviderHarness.teamB))
        #expect(try other.get().idToken != nil)
        #expect(await harness.redeem(try await harness.code(), secret: try await harness.clientSecret()).failure?.statusCode == 500)
    }

    @Test("the switch is refused outside development mode, and nothing is armed by default")
    func developmentOnly() async throws {
        let harness = try await ProviderHarness.make()
        await #expect(throws: ConsoleError.refused("the fault switch works only in development mode (siwa serve --development)")) {
            try await harness.provider.armTokenFault(ArmedTokenFault(.algNone), for: Self.client)
        }
        let token = try DecodedToken(
            try #require(try await harness.redeem(try await harness.code(), secret: try await harness.clientSecret()).get().idToken))
        #expect(token.verifies(with: harness.provider.keyRing.activeKey.publicKey))
    }

    @Test("a fault for an unknown client is refused")
    func unknownClient() async throws {
        let harness = try await Self.harness()
        await #expect(throws: ConsoleError.notFound("no client com.nobody.web")) {
            try await harness.provider.armTokenFault(ArmedTokenFault(.algNone), for: "com.nobody.web")
        }
    }
}

/// A compact JWS taken apart for assertions (tests only; Sources read tokens with CompactJWS).
struct DecodedToken {
    let header: String
    let claims: IdentityTokenClaims
    let signingInput: String
    let signature: [UInt8]
    var accessToken: String?

    init(_ token: String, accessToken: String? = nil) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        header = String(decoding: try Base64URL.decode(parts[0]), as: UTF8.self)
        claims = try JSONDecoder().decode(IdentityTokenClaims.self, from: Data(try Base64URL.decode(parts[1])))
        signingInput = parts[0] + "." + parts[1]
        signature = try Base64URL.decode(parts[2])
        self.accessToken = accessToken
    }

    func verifies(with key: _RSA.Signing.PublicKey) -> Bool {
        key.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: Array(signingInput.utf8)),
            padding: .insecurePKCS1v1_5)
    }
}
