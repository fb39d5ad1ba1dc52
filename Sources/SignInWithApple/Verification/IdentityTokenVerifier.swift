import AppleIDProtocol
import Foundation

/// Verifies identity tokens: size (``TokenLimits``), signature (RS256, key by `kid` from the
/// environment's key set), the length of `sub`, `aud` and `iss`, issuer, audience, expiry, issue
/// time and `nbf` with a leeway, nonce, and the `at_hash` / `c_hash` bindings.
///
/// ```swift
/// let verifier = IdentityTokenVerifier(
///     environment: .production, audiences: ["com.example.app", "com.example.app.web"], keys: keySet)
/// let identity = try await verifier.verify(idToken, nonce: Nonce(raw: savedNonce))
/// ```
public struct IdentityTokenVerifier: Sendable {
    public let issuers: Set<String>
    /// The app group's bundle IDs and Services IDs.
    public let audiences: Set<String>
    /// Tolerated clock difference for `exp`, `iat` and `nbf`.
    public let leeway: TimeInterval
    /// The leeway when none is given: 60 s.
    public static let defaultLeeway: TimeInterval = 60
    let signed: SignedTokenVerifier
    let clock: @Sendable () -> Date

    public init(
        environment: AppleEnvironment, audiences: Set<String>, keys: AppleKeySet, leeway: TimeInterval = defaultLeeway,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(issuers: Set(environment.issuers), audiences: audiences, keys: keys, leeway: leeway, clock: clock)
    }

    public init(
        issuers: Set<String>, audiences: Set<String>, keys: AppleKeySet, leeway: TimeInterval = defaultLeeway,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        precondition(!audiences.isEmpty, "an identity token is only valid for an audience: name the app's client IDs")
        self.issuers = issuers
        self.audiences = audiences
        self.leeway = leeway
        self.signed = SignedTokenVerifier(keys: keys)
        self.clock = clock
    }

    /// - Parameters:
    ///   - nonce: the nonce of the request; checked when given (honouring `nonce_supported`).
    ///   - accessToken: the access token issued with this id_token; checked against `at_hash`.
    ///   - authorizationCode: the code delivered with this id_token; checked against `c_hash`.
    public func verify(
        _ token: String, nonce: Nonce? = nil, accessToken: String? = nil, authorizationCode: String? = nil
    ) async throws -> VerifiedIdentityToken {
        let (payload, keyID) = try await signed.verify(token)
        let claims: IdentityTokenClaims
        let notBefore: Int?
        do {
            let members = try FlatJSON.parse(payload)
            claims = try IdentityTokenClaims(members: members)
            notBefore = try FlatJSON.notBefore(in: members)
        } catch {
            throw IdentityTokenError.malformed("the claims are not an identity token's (iss, aud, exp, iat, sub)")
        }
        try check(claims, notBefore: notBefore, nonce: nonce, accessToken: accessToken, authorizationCode: authorizationCode)
        return VerifiedIdentityToken(claims: claims, keyID: keyID, notBefore: notBefore)
    }

    func check(_ claims: IdentityTokenClaims, notBefore: Int?, nonce: Nonce?, accessToken: String?, authorizationCode: String?) throws {
        // Bounds first: an empty or huge identifier is refused before it is compared, logged or stored.
        try TokenLimits.checkIdentifier("iss", claims.issuer)
        try TokenLimits.checkIdentifier("aud", claims.audience)
        try TokenLimits.checkIdentifier("sub", claims.subject.rawValue)
        guard issuers.containsExactly(claims.issuer) else { throw IdentityTokenError.wrongIssuer(claims.issuer) }
        guard audiences.containsExactly(claims.audience) else { throw IdentityTokenError.wrongAudience(claims.audience) }
        let now = clock().timeIntervalSince1970
        guard TimeInterval(claims.expiresAt) + leeway > now else {
            throw IdentityTokenError.expired(expiresAt: claims.expiresAt, now: Int(now))
        }
        guard TimeInterval(claims.issuedAt) - leeway <= now else {
            throw IdentityTokenError.issuedInTheFuture(issuedAt: claims.issuedAt, now: Int(now))
        }
        // RFC 7519 §4.1.5: not to be accepted before nbf. Apple sends none; a token that has one is held to it.
        if let notBefore, TimeInterval(notBefore) - leeway > now {
            throw IdentityTokenError.notYetValid(notBefore: notBefore, now: Int(now))
        }
        if let nonce {
            if let carried = claims.nonce {
                guard WireMatch.exact(carried, nonce.transmittedValue) else {
                    // The commonest nonce mistake: one side hashes, the other does not. Say so.
                    guard WireMatch.exact(carried, nonce.inOtherConvention.transmittedValue) else { throw IdentityTokenError.nonceMismatch }
                    throw IdentityTokenError.nonceConventionMismatch(expected: nonce.convention)
                }
            } else if claims.nonceSupported == true {
                throw IdentityTokenError.nonceMissing
            }
        }
        if let accessToken, let hash = claims.accessTokenHash, hash != TokenHash.of(accessToken) {
            throw IdentityTokenError.accessTokenHashMismatch
        }
        if let authorizationCode, let hash = claims.codeHash, hash != TokenHash.of(authorizationCode) {
            throw IdentityTokenError.codeHashMismatch
        }
    }
}
