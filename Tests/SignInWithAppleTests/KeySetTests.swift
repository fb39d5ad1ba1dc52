import AppleIDProtocol
import Crypto
import Foundation
import Testing
import _CryptoExtras

@testable import SignInWithApple

/// `AppleKeySet` fetching through a transport the test controls: how often it fetches, what it
/// does on rotation, under concurrency, within and after the cooldown, and when the endpoint fails.
@Suite("AppleKeySet: fetching, rotation, single flight, cooldown, outage")
struct KeySetTests {
    typealias Endpoint = VerifierSupport.KeyEndpoint

    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let audience = "com.example.app"

    static var k1: (key: _RSA.Signing.PrivateKey, kid: String) { (VerifierSupport.key1, "k1") }
    static var k2: (key: _RSA.Signing.PrivateKey, kid: String) { (VerifierSupport.key2, "k2") }

    /// A key set, a verifier on the same hand-moved clock, and the endpoint behind them.
    struct Harness {
        let endpoint: Endpoint
        let clock = VerifierSupport.ClockBox(KeySetTests.start)
        let keys: AppleKeySet
        let verifier: IdentityTokenVerifier

        init(serving jwks: [UInt8], cooldown: TimeInterval = 60) {
            self.init(endpoint: Endpoint(.serve(jwks)), cooldown: cooldown)
        }

        init(endpoint: Endpoint, cooldown: TimeInterval = 60) {
            self.endpoint = endpoint
            keys = AppleKeySet(environment: .production, transport: endpoint, refetchCooldown: cooldown, clock: clock.clock)
            verifier = IdentityTokenVerifier(environment: .production, audiences: [KeySetTests.audience], keys: keys, clock: clock.clock)
        }

        /// A token valid for a day from the start, signed by `signer` under its kid.
        func token(_ signer: (key: _RSA.Signing.PrivateKey, kid: String), kid: String? = nil) -> String {
            var claims = VerifierSupport.claims(now: Int(KeySetTests.start.timeIntervalSince1970), audience: KeySetTests.audience)
            claims["exp"] = Int(KeySetTests.start.timeIntervalSince1970) + 86_400
            return VerifierSupport.sign(header: ["alg": "RS256", "kid": kid ?? signer.kid], claims: claims, with: signer.key)
        }

        @discardableResult
        func verify(_ signer: (key: _RSA.Signing.PrivateKey, kid: String), kid: String? = nil) async throws -> VerifiedIdentityToken {
            try await verifier.verify(token(signer, kid: kid))
        }
    }

    @Test("the first use fetches Apple's /auth/keys once; a known kid never refetches")
    func firstUse() async throws {
        let harness = Harness(serving: VerifierSupport.jwks([Self.k1]))
        #expect(harness.endpoint.fetchCount == 0)
        let identity = try await harness.verify(Self.k1)
        #expect(identity.keyID == "k1")
        #expect(harness.endpoint.fetchCount == 1)
        #expect(harness.endpoint.requests.first == HTTPTransportRequest(method: .get, url: "https://appleid.apple.com/auth/keys"))
        #expect(await harness.keys.knownKeyIDs == ["k1"])
        for step in 0..<10 {
            harness.clock.advance(by: 3_600)  // far past any cooldown: a known kid still never fetches
            try await harness.verify(Self.k1)
            #expect(harness.endpoint.fetchCount == 1, "after \(step + 1) hours")
        }
        _ = try await harness.keys.key(for: "k1")
        #expect(harness.endpoint.fetchCount == 1)
    }

    @Test("the keys endpoint follows the environment")
    func customEnvironment() async throws {
        let endpoint = Endpoint(.serve(VerifierSupport.jwks([Self.k1])))
        let keys = AppleKeySet(environment: .custom(baseURL: "http://127.0.0.1:8080/"), transport: endpoint)
        _ = try await keys.key(for: "k1")
        #expect(endpoint.requests.map(\.url) == ["http://127.0.0.1:8080/auth/keys"])
        #expect(endpoint.requests.map(\.method) == [.get])
    }

    @Test("rotation: an unknown kid refetches once and finds the newly published key")
    func rotation() async throws {
        let harness = Harness(serving: VerifierSupport.jwks([Self.k1]))
        try await harness.verify(Self.k1)
        #expect(harness.endpoint.fetchCount == 1)

        harness.endpoint.set(.serve(VerifierSupport.jwks([Self.k1, Self.k2])))
        harness.clock.advance(by: 61)
        let rotated = try await harness.verify(Self.k2)
        #expect(rotated.keyID == "k2")
        #expect(harness.endpoint.fetchCount == 2)
        #expect(await harness.keys.knownKeyIDs == ["k1", "k2"])
        try await harness.verify(Self.k2)
        try await harness.verify(Self.k1)
        #expect(harness.endpoint.fetchCount == 2)

        // Apple retires k1: the next refetch (for yet another kid) sees it gone; it keeps verifying
        // for the withdrawal grace period (an hour), then it is dropped.
        harness.endpoint.set(.serve(VerifierSupport.jwks([Self.k2])))
        harness.clock.advance(by: 61)
        await #expect(throws: IdentityTokenError.unknownKeyID("k3")) { try await harness.verify(Self.k2, kid: "k3") }
        #expect(harness.endpoint.fetchCount == 3)
        #expect(await harness.keys.knownKeyIDs == ["k1", "k2"])
        try await harness.verify(Self.k1)
        harness.clock.advance(by: 3_600)
        #expect(await harness.keys.knownKeyIDs == ["k2"])
        await #expect(throws: IdentityTokenError.unknownKeyID("k1")) { try await harness.verify(Self.k1) }
    }

    @Test("a key is never borrowed from another kid: k2's token under kid k1 is invalidSignature")
    func noBorrowedKey() async throws {
        let harness = Harness(serving: VerifierSupport.jwks([Self.k1, Self.k2]))
        await #expect(throws: IdentityTokenError.invalidSignature) { try await harness.verify(Self.k2, kid: "k1") }
        try await harness.verify(Self.k2)
        #expect(harness.endpoint.fetchCount == 1)
    }

    @Test("20 concurrent verifications with an unknown kid share one fetch")
    func singleFlight() async throws {
        let harness = Harness(serving: VerifierSupport.jwks([Self.k1]))
        try await harness.verify(Self.k1)
        #expect(harness.endpoint.fetchCount == 1)

        harness.endpoint.set(.serve(VerifierSupport.jwks([Self.k1, Self.k2])))
        harness.clock.advance(by: 120)
        harness.endpoint.closeGate()
        let token = harness.token(Self.k2)
        let verifier = harness.verifier
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask { try await verifier.verify(token).keyID }
            }
            // The refetch is held at the gate until all 20 verifications wait on a fetch: were there
            // no single flight, some would have started fetches of their own by then.
            await harness.endpoint.waitForRequests(2)
            await harness.keys.fetchWaiters.reached(21)
            #expect(harness.endpoint.fetchCount == 2)
            harness.endpoint.openGate()
            var verified = 0
            for try await keyID in group {
                #expect(keyID == "k2")
                verified += 1
            }
            #expect(verified == 20)
        }
        #expect(harness.endpoint.fetchCount == 2)
    }

    @Test("20 concurrent first uses share the initial fetch")
    func singleFlightFirstUse() async throws {
        let harness = Harness(serving: VerifierSupport.jwks([Self.k1]))
        harness.endpoint.closeGate()
        let token = harness.token(Self.k1)
        let verifier = harness.verifier
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { _ = try await verifier.verify(token) } }
            await harness.endpoint.waitForRequests(1)
            await harness.keys.fetchWaiters.reached(20)
            harness.endpoint.openGate()
            try await group.waitForAll()
        }
        #expect(harness.endpoint.fetchCount == 1)
    }

    @Test("a second unknown kid within the cooldown does not fetch (unknownKeyID); after the cooldown it does")
    func cooldown() async throws {
        let harness = Harness(serving: VerifierSupport.jwks([Self.k1]), cooldown: 60)
        try await harness.verify(Self.k1)
        #expect(harness.endpoint.fetchCount == 1)

        // An unknown kid past the cooldown: one refetch, still unknown.
        harness.clock.advance(by: 120)
        await #expect(throws: IdentityTokenError.unknownKeyID("k9")) { try await harness.verify(Self.k2, kid: "k9") }
        #expect(harness.endpoint.fetchCount == 2)

        // k2 is published now, but within the cooldown nothing is fetched.
        harness.endpoint.set(.serve(VerifierSupport.jwks([Self.k1, Self.k2])))
        harness.clock.advance(by: 59)
        await #expect(throws: IdentityTokenError.unknownKeyID("k2")) { try await harness.verify(Self.k2) }
        await #expect(throws: IdentityTokenError.unknownKeyID("k9")) { try await harness.verify(Self.k2, kid: "k9") }
        #expect(harness.endpoint.fetchCount == 2)
        try await harness.verify(Self.k1)  // the known key keeps working meanwhile

        // From the end of the cooldown on, the next unknown kid fetches again and finds k2.
        harness.clock.advance(by: 1)
        let identity = try await harness.verify(Self.k2)
        #expect(identity.keyID == "k2")
        #expect(harness.endpoint.fetchCount == 3)
    }

    @Test("with a cooldown of zero every unknown kid refetches")
    func zeroCooldown() async throws {
        let harness = Harness(serving: VerifierSupport.jwks([Self.k1]), cooldown: 0)
        try await harness.verify(Self.k1)
        for attempt in 1...3 {
            await #expect(throws: IdentityTokenError.unknownKeyID("k9")) { try await harness.verify(Self.k1, kid: "k9") }
            #expect(harness.endpoint.fetchCount == 1 + attempt)
        }
    }

    enum Outage: String, CaseIterable, Sendable {
        case transportThrows, answers500, answers404, emptyKeySet, notJSON

        var mode: Endpoint.Mode {
            switch self {
            case .transportThrows: .throwError
            case .answers500: .status(500)
            case .answers404: .status(404)
            case .emptyKeySet: .serve(Array("{\"keys\":[]}".utf8))
            case .notJSON: .serve(Array("<html>maintenance</html>".utf8))
            }
        }
    }

    @Test("when the endpoint fails, the cached keys keep verifying known kids", arguments: Outage.allCases)
    func outageWithCachedKeys(_ outage: Outage) async throws {
        let harness = Harness(serving: VerifierSupport.jwks([Self.k1]))
        try await harness.verify(Self.k1)
        harness.endpoint.set(outage.mode)
        harness.clock.advance(by: 120)
        try await harness.verify(Self.k1)
        #expect(harness.endpoint.fetchCount == 1)

        // An unknown kid tries a refetch, which fails: unknownKeyID, and k1 survives it.
        await #expect(throws: IdentityTokenError.unknownKeyID("k2")) { try await harness.verify(Self.k2) }
        #expect(harness.endpoint.fetchCount == 2)
        #expect(await harness.keys.knownKeyIDs == ["k1"])
        try await harness.verify(Self.k1)

        // The endpoint recovers with k2: after the cooldown, k2 is found.
        harness.endpoint.set(.serve(VerifierSupport.jwks([Self.k1, Self.k2])))
        harness.clock.advance(by: 61)
        try await harness.verify(Self.k2)
        #expect(harness.endpoint.fetchCount == 3)
    }

    @Test("with no cached keys the failure surfaces as keySetUnavailable, and the next call tries again", arguments: Outage.allCases)
    func outageWithoutKeys(_ outage: Outage) async throws {
        let harness = Harness(endpoint: Endpoint(outage.mode))
        let error = await VerifierSupport.failure { try await harness.verify(Self.k1) }
        guard (error as? IdentityTokenError)?.kind == .keySetUnavailable else {
            Issue.record("expected keySetUnavailable, got \(String(describing: error))")
            return
        }
        #expect(harness.endpoint.fetchCount == 1)
        do {
            _ = try await harness.keys.key(for: "k1")
            Issue.record("a key was returned from an unavailable key set")
        } catch let error as AppleKeySet.KeyError {
            guard error.kind == .unavailable else {
                Issue.record("expected unavailable, got \(error)")
                return
            }
        }
        #expect(harness.endpoint.fetchCount == 2)  // with nothing to verify with, every caller may try

        harness.endpoint.set(.serve(VerifierSupport.jwks([Self.k1])))
        try await harness.verify(Self.k1)
        #expect(harness.endpoint.fetchCount == 3)
    }

    // MARK: Unusable keys

    static var ecKey: [String: Any] {
        let raw = [UInt8](P256.Signing.PrivateKey().publicKey.rawRepresentation)
        return [
            "kty": "EC", "kid": "ec", "use": "sig", "alg": "ES256", "crv": "P-256", "x": Base64URL.encode(raw.prefix(32)),
            "y": Base64URL.encode(raw.suffix(32)),
        ]
    }

    static func rsaJWK(kid: String, n: [UInt8], e: [UInt8] = [1, 0, 1]) -> [String: Any] {
        ["kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": Base64URL.encode(n), "e": Base64URL.encode(e)]
    }

    static var goodModulus: [UInt8] { [UInt8](try! VerifierSupport.key1.publicKey.getKeyPrimitives().modulus) }

    /// Keys the kit must skip, each with why.
    static var unusableKeys: [(String, [String: Any])] {
        let n = goodModulus
        var even = n
        even[even.count - 1] &= 0xFE
        var rsa1024 = Array(n.prefix(128))
        rsa1024[127] |= 1
        return [
            ("EC P-256 key", ecKey),
            ("1024-bit RSA", rsaJWK(kid: "rsa1024", n: rsa1024)),
            ("2040-bit RSA", rsaJWK(kid: "rsa2040", n: Array(n.prefix(255)))),
            ("garbage n (not base64url)", ["kty": "RSA", "kid": "garbage", "use": "sig", "alg": "RS256", "n": "@@not base64@@", "e": "AQAB"]),
            (
                "n holding a DER blob in standard base64",
                ["kty": "RSA", "kid": "spki", "n": VerifierSupport.key1.publicKey.derRepresentation.base64EncodedString(), "e": "AQAB"]
            ),
            ("even modulus", rsaJWK(kid: "even", n: even)),
            ("public exponent 1", rsaJWK(kid: "e1", n: n, e: [1])),
            ("public exponent 2", rsaJWK(kid: "e2", n: n, e: [2])),
            ("empty n", rsaJWK(kid: "empty", n: [])),
            ("missing n", ["kty": "RSA", "kid": "no-n", "e": "AQAB"]),
            ("missing e", ["kty": "RSA", "kid": "no-e", "n": Base64URL.encode(n)]),
            ("missing kid", ["kty": "RSA", "use": "sig", "alg": "RS256", "n": Base64URL.encode(n), "e": "AQAB"]),
            ("use enc", ["kty": "RSA", "kid": "enc", "use": "enc", "n": Base64URL.encode(n), "e": "AQAB"]),
            ("alg RS512", ["kty": "RSA", "kid": "rs512", "alg": "RS512", "n": Base64URL.encode(n), "e": "AQAB"]),
            ("kty oct", ["kty": "oct", "kid": "hmac", "k": Base64URL.encode(n)]),
            ("kty missing", ["kid": "nokty", "n": Base64URL.encode(n), "e": "AQAB"]),
        ]
    }

    @Test("a JWKS whose keys are all unusable yields no key and no crash")
    func unusableKeySet() async throws {
        let all = Self.unusableKeys
        for (name, jwk) in all {
            let single = AppleKeySet(jwksJSON: VerifierSupport.json(["keys": [jwk]]))
            #expect(await single.knownKeyIDs.isEmpty, "\(name) was loaded")
        }
        let fixed = AppleKeySet(jwksJSON: VerifierSupport.json(["keys": all.map(\.1)]))
        #expect(await fixed.knownKeyIDs.isEmpty)

        // Fetched: such a key set counts as a failed fetch.
        let harness = Harness(serving: VerifierSupport.json(["keys": all.map(\.1)]))
        let error = await VerifierSupport.failure { try await harness.verify(Self.k1) }
        guard (error as? IdentityTokenError)?.kind == .keySetUnavailable else {
            Issue.record("expected keySetUnavailable, got \(String(describing: error))")
            return
        }
        #expect(await harness.keys.knownKeyIDs.isEmpty)
    }

    static let unusableKeyNames = unusableKeys.map(\.0)

    @Test("an unusable key beside a good one is skipped; the good one verifies", arguments: unusableKeyNames)
    func mixedKeySet(_ name: String) async throws {
        let unusable = try #require(Self.unusableKeys.first { $0.0 == name }?.1)
        let keys = [unusable, VerifierSupport.jwk(VerifierSupport.key1.publicKey, kid: "k1")]
        let harness = Harness(serving: VerifierSupport.json(["keys": keys]))
        try await harness.verify(Self.k1)
        #expect(await harness.keys.knownKeyIDs == ["k1"])
        if let kid = unusable["kid"] as? String {
            await #expect(throws: IdentityTokenError.unknownKeyID(kid)) { try await harness.verify(Self.k1, kid: kid) }
        }
    }

    /// Entries whose members have the wrong JSON type (or are not objects at all). Each is
    /// unusable and must be skipped like any other unusable key, not take the good keys down with it.
    static var wronglyTypedEntries: [String: Any] {
        let n = Base64URL.encode(goodModulus)
        return [
            "n a number": ["kty": "RSA", "kid": "bad", "n": 12345, "e": "AQAB"],
            "e a number": ["kty": "RSA", "kid": "bad", "n": n, "e": 65537],
            "kid a number": ["kty": "RSA", "kid": 7, "n": n, "e": "AQAB"],
            "kty an array": ["kty": ["RSA"], "kid": "bad", "n": n, "e": "AQAB"],
            "use an array": ["kty": "RSA", "kid": "bad", "use": ["sig"], "n": n, "e": "AQAB"],
            "alg a boolean": ["kty": "RSA", "kid": "bad", "alg": true, "n": n, "e": "AQAB"],
            "a null entry": NSNull(),
            "a string entry": "RSA",
            "a number entry": 5,
        ]
    }

    static let wronglyTypedNames = wronglyTypedEntries.keys.sorted()

    @Test(
        "a wrongly typed entry beside a good key is skipped; the good key still loads",
        arguments: wronglyTypedNames)
    func wronglyTypedEntry(_ name: String) async throws {
        let entry = try #require(Self.wronglyTypedEntries[name])
        let jwks = VerifierSupport.json(["keys": [entry, VerifierSupport.jwk(VerifierSupport.key1.publicKey, kid: "k1")]])
        #expect(await AppleKeySet(jwksJSON: jwks).knownKeyIDs == ["k1"])
        let harness = Harness(serving: jwks)
        try await harness.verify(Self.k1)
    }

    @Test("a wrongly typed entry alone loads nothing and crashes nothing", arguments: wronglyTypedNames)
    func wronglyTypedEntryAlone(_ name: String) async throws {
        let entry = try #require(Self.wronglyTypedEntries[name])
        #expect(await AppleKeySet(jwksJSON: VerifierSupport.json(["keys": [entry]])).knownKeyIDs.isEmpty)
    }

    @Test(
        "malformed key set documents load nothing",
        arguments: [
            "", "null", "[]", "{}", "{\"keys\":5}", "{\"keys\":[5]}", "{\"keys\":{\"kty\":\"RSA\"}}", "{\"keys\":[null]}", "\u{FEFF}{}",
            String(repeating: "[", count: 10_000),
        ])
    func malformedDocuments(_ document: String) async {
        let keySet = AppleKeySet(jwksJSON: Array(document.utf8))
        #expect(await keySet.knownKeyIDs.isEmpty)
    }

    @Test("a fixed key set never fetches: unknown kid → unknownKeyID; empty → keySetUnavailable")
    func fixedKeySet() async throws {
        let fixed = AppleKeySet(jwksJSON: VerifierSupport.jwks([Self.k1]))
        let verifier = IdentityTokenVerifier(
            environment: .production, audiences: [Self.audience], keys: fixed, clock: { KeySetTests.start })
        let harness = Harness(serving: [])
        _ = try await verifier.verify(harness.token(Self.k1))
        await #expect(throws: IdentityTokenError.unknownKeyID("k2")) { try await verifier.verify(harness.token(Self.k2)) }
        let empty = IdentityTokenVerifier(
            environment: .production, audiences: [Self.audience], keys: AppleKeySet(jwksJSON: Array("{\"keys\":[]}".utf8)),
            clock: { KeySetTests.start })
        let error = await VerifierSupport.failure { try await empty.verify(harness.token(Self.k1)) }
        guard (error as? IdentityTokenError)?.kind == .keySetUnavailable else {
            Issue.record("expected keySetUnavailable, got \(String(describing: error))")
            return
        }
    }
}
