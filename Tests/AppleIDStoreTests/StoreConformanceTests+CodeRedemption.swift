import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// `redeemCode(hash:binding:at:validAt:issuing:)`: the fast path of a code exchange, one unit.
extension StoreConformanceTests {
    static let binding = CodeBinding(
        clientID: "com.example.web", redirectURI: "https://example.com/cb", codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")

    /// An exchange's access and refresh token, made before the redemption.
    static func newTokens(_ name: String = "1") -> [NewToken] {
        [
            NewToken(tokenHash: "access-\(name)", kind: .access, createdAt: Fixture.date(1), expiresAt: Fixture.date(3601)),
            NewToken(tokenHash: "refresh-\(name)", kind: .refresh, createdAt: Fixture.date(1), expiresAt: nil),
        ]
    }

    @Test(
        "a code bound to the request, live, under a live grant is consumed, comes back with its grant and its tokens are stored",
        arguments: StoreKind.available)
    func redeemReturnsCodeAndGrant(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let grant = Fixture.grant(id: "grant-1")
            try await store.save(grant)
            try await store.save(Fixture.code())
            let redeemed = try #require(
                try await store.redeemCode(
                    hash: "code-hash-1", binding: Self.binding, at: Fixture.date(2), validAt: Fixture.date(1), issuing: Self.newTokens()))
            #expect(redeemed.grant == grant)
            for token in Self.newTokens() {
                #expect(try await store.token(hash: token.tokenHash) == token.record(under: grant), "under the grant, for its client")
            }
            #expect(redeemed.code == Fixture.code(consumedAt: Fixture.date(2)))
            #expect(try await store.authorizationCode(hash: "code-hash-1")?.consumedAt == Fixture.date(2))
            // Once only.
            #expect(
                try await store.redeemCode(
                    hash: "code-hash-1", binding: Self.binding, at: Fixture.date(3), validAt: Fixture.date(3), issuing: Self.newTokens("2")) == nil)
            #expect(try await store.token(hash: "access-2") == nil)
            #expect(try await store.authorizationCode(hash: "code-hash-1") == Fixture.code(consumedAt: Fixture.date(2)))
        }
    }

    /// Each refusal leaves the code unconsumed, so the exchange can read it to tell why (and a stolen
    /// code presented by another client is not burnt).
    @Test(
        "a code that differs in client, redirect URI, challenge, expiry or grant is left unconsumed",
        arguments: StoreKind.available, RedemptionRefusal.allCases)
    func redeemRefusesWithoutConsuming(kind: StoreKind, refusal: RedemptionRefusal) async throws {
        try await kind.withStore { store in
            try await store.save(Fixture.grant(id: "grant-1", revokedAt: refusal == .revokedGrant ? Fixture.date(-1) : nil))
            try await store.save(Fixture.code())
            var binding = Self.binding
            var validAt = Fixture.date(1)
            switch refusal {
            case .otherClient: binding.clientID = "com.example.other"
            case .otherRedirectURI: binding.redirectURI = "https://example.com/cb/"
            case .missingRedirectURI: binding.redirectURI = nil
            case .missingVerifier: binding.codeChallenge = nil
            case .otherVerifier: binding.codeChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cN"
            case .expired: validAt = Fixture.date(300)
            case .revokedGrant: break
            }
            #expect(
                try await store.redeemCode(hash: "code-hash-1", binding: binding, at: Fixture.date(2), validAt: validAt, issuing: Self.newTokens())
                    == nil)
            #expect(try await store.authorizationCode(hash: "code-hash-1") == Fixture.code())
            #expect(try await store.token(hash: "access-1") == nil, "no token without the code")
            #expect(
                try await store.redeemCode(
                    hash: "unknown", binding: Self.binding, at: Fixture.date(2), validAt: Fixture.date(1), issuing: Self.newTokens()) == nil)
            #expect(try await store.token(hash: "refresh-1") == nil)
        }
    }

    /// Absent redirect URI and challenge on both sides count as equal (native-style codes without PKCE).
    @Test(arguments: StoreKind.available)
    func redeemNativeCodeWithoutRedirectOrChallenge(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.save(Fixture.grant(id: "grant-1"))
            var native = Fixture.code(hash: "native")
            native.redirectURI = nil
            native.codeChallenge = nil
            try await store.save(native)
            let binding = CodeBinding(clientID: "com.example.web", redirectURI: nil, codeChallenge: nil)
            #expect(
                try await store.redeemCode(hash: "native", binding: binding, at: Fixture.date(2), validAt: Fixture.date(1), issuing: [])?.code
                    .consumedAt
                    == Fixture.date(2))
        }
    }

    @Test(arguments: StoreKind.available)
    func fiftyConcurrentFastRedemptionsYieldExactlyOne(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.save(Fixture.grant(id: "grant-1"))
            try await store.save(Fixture.code())
            let winners = try await withThrowingTaskGroup(of: RedeemedCode?.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        try await store.redeemCode(
                            hash: "code-hash-1", binding: Self.binding, at: Fixture.date(Double(index)), validAt: Fixture.t0,
                            issuing: Self.newTokens("\(index)"))
                    }
                }
                return try await group.reduce(into: [RedeemedCode]()) { if let redeemed = $1 { $0.append(redeemed) } }
            }
            #expect(winners.count == 1)
            #expect(try await store.authorizationCode(hash: "code-hash-1")?.consumedAt == winners.first?.code.consumedAt)
            var stored = 0
            for index in 0..<50 where try await store.token(hash: "access-\(index)") != nil { stored += 1 }
            #expect(stored == 1, "only the winner's tokens are stored")
        }
    }

    @Test(
        "a redemption whose token cannot be stored (its hash is taken) consumes nothing and stores nothing; the retry stores its tokens exactly",
        arguments: StoreKind.available)
    func redeemWithTakenTokenHashChangesNothing(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let grant = Fixture.grant(id: "grant-1")
            try await store.save(grant)
            try await store.save(Fixture.code())
            let taken = Self.newTokens()[1].record(under: grant)
            try await store.insert([taken])
            await #expect(throws: (any Error).self) {
                try await store.redeemCode(
                    hash: "code-hash-1", binding: Self.binding, at: Fixture.date(2), validAt: Fixture.date(1), issuing: Self.newTokens())
            }
            #expect(try await store.authorizationCode(hash: "code-hash-1") == Fixture.code(), "still redeemable")
            #expect(try await store.token(hash: "access-1") == nil, "the other token is not stored either")
            #expect(try await store.token(hash: "refresh-1") == taken)
            // The retry, with times as a real clock gives them, to the last bit of a `Double`.
            let retried = NewToken(
                tokenHash: "access-2", kind: .access, createdAt: Date(timeIntervalSince1970: 1_764_300_000.123_456_7),
                expiresAt: Date(timeIntervalSince1970: 1_764_303_600.987_654_3))
            let redeemed = try await store.redeemCode(
                hash: "code-hash-1", binding: Self.binding, at: Fixture.date(3), validAt: Fixture.date(1), issuing: [retried])
            #expect(redeemed?.grant == grant, "the retry with a fresh token succeeds")
            #expect(try await store.token(hash: "access-2") == retried.record(under: grant))
        }
    }
}

enum RedemptionRefusal: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case otherClient, otherRedirectURI, missingRedirectURI, missingVerifier, otherVerifier, expired, revokedGrant

    var testDescription: String { rawValue }
}
