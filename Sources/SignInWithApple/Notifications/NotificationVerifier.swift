import AppleIDProtocol
import Foundation

/// A verified server-to-server notification.
public struct AppleNotification: Sendable, Hashable {
    /// The client ID the notification is for (`aud`).
    public var audience: String
    public var issuedAt: Date
    /// The JWT's unique ID: remember it until ``expiresAt`` to process each notification once (Apple
    /// may deliver twice, and a captured notification can be replayed until it expires).
    public var id: String
    public var events: [NotificationEvent]
    /// `exp` (Apple: `iat` + 24 hours); `nil` when the notification has none.
    public var expiresAt: Date?

    /// Until when a receiver must remember ``id``: `exp`, or ``replayWindow`` after `iat` without one.
    /// The verifier refuses a notification past this end, so a forgotten `jti` is never applied again.
    public var replayWindowEnd: Date { expiresAt ?? issuedAt.addingTimeInterval(Self.replayWindow) }

    /// How long after `iat` a notification without `exp` is accepted (Apple's `exp` is `iat` + 24 hours).
    public static let replayWindow: TimeInterval = 86_400
}

/// Verifies the body Apple POSTs to the notification endpoint: `{"payload": "<jwt>"}`, signed with the
/// same keys as identity tokens, for one of the app group's client IDs.
public struct NotificationVerifier: Sendable {
    public let issuers: Set<String>
    public let audiences: Set<String>
    public let leeway: TimeInterval
    let signed: SignedTokenVerifier
    let clock: @Sendable () -> Date

    public init(
        environment: AppleEnvironment, audiences: Set<String>, keys: AppleKeySet, leeway: TimeInterval = IdentityTokenVerifier.defaultLeeway,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        precondition(!audiences.isEmpty, "a notification is only valid for an audience: name the app's client IDs")
        self.issuers = Set(environment.issuers)
        self.audiences = audiences
        self.leeway = leeway
        self.signed = SignedTokenVerifier(keys: keys)
        self.clock = clock
    }

    /// The largest body ``verify(body:)`` reads: a token of ``TokenLimits/maximumTokenBytes`` and its envelope.
    public static let maximumBodyBytes = TokenLimits.maximumTokenBytes + 64

    /// Verifies the raw POST body.
    public func verify(body: [UInt8]) async throws -> AppleNotification {
        struct Envelope: Decodable { let payload: String }
        guard body.count <= Self.maximumBodyBytes else { throw IdentityTokenError.tooLarge(bytes: body.count, limit: Self.maximumBodyBytes) }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(body)) else {
            throw IdentityTokenError.malformed("the body is not {\"payload\": \"<jwt>\"}")
        }
        return try await verify(payload: envelope.payload)
    }

    /// Verifies the notification JWT itself.
    public func verify(payload token: String) async throws -> AppleNotification {
        let (payload, _) = try await signed.verify(token)
        /// `nbf` (RFC 7519 §4.1.5), which ``NotificationClaims`` does not carry.
        struct NotBefore: Decodable { let nbf: Int? }
        let claims: NotificationClaims
        let notBefore: Int?
        do {
            claims = try JSONDecoder().decode(NotificationClaims.self, from: Data(payload))
            notBefore = try JSONDecoder().decode(NotBefore.self, from: Data(payload)).nbf
        } catch {
            throw IdentityTokenError.malformed("the claims are not a notification's (iss, aud, iat, jti, events)")
        }
        try TokenLimits.checkIdentifier("iss", claims.issuer)
        try TokenLimits.checkIdentifier("aud", claims.audience)
        for event in claims.events { try TokenLimits.checkIdentifier("sub", event.subject) }
        guard issuers.containsExactly(claims.issuer) else { throw IdentityTokenError.wrongIssuer(claims.issuer) }
        guard audiences.containsExactly(claims.audience) else { throw IdentityTokenError.wrongAudience(claims.audience) }
        let now = clock().timeIntervalSince1970
        // Without `exp`, the replay window (`iat` + 24 hours) is the end: past it the receiver may have
        // forgotten the `jti`, so a captured notification would be applied again, forever.
        let end = claims.expiresAt ?? (claims.issuedAt + Int(AppleNotification.replayWindow))
        if TimeInterval(end) + leeway <= now {
            throw IdentityTokenError.expired(expiresAt: end, now: Int(now))
        }
        guard TimeInterval(claims.issuedAt) - leeway <= now else {
            throw IdentityTokenError.issuedInTheFuture(issuedAt: claims.issuedAt, now: Int(now))
        }
        if let notBefore, TimeInterval(notBefore) - leeway > now {
            throw IdentityTokenError.notYetValid(notBefore: notBefore, now: Int(now))
        }
        return AppleNotification(
            audience: claims.audience, issuedAt: Date(timeIntervalSince1970: TimeInterval(claims.issuedAt)), id: claims.jwtID,
            events: claims.events, expiresAt: claims.expiresAt.map { Date(timeIntervalSince1970: TimeInterval($0)) })
    }
}
