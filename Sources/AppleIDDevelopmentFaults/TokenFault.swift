import AppleIDProtocol
import AppleIDProvider
import Foundation
import Logging
import Synchronization

/// A defect the token endpoint puts, on request, into its next answer to one client, so that
/// `siwa check` can prove an app refuses what a misbehaving Apple might send (issue 20).
///
/// Each raw value is the check that uses it: `unpublished-key` is `token.unpublished-key`.
public enum TokenFault: String, Sendable, Hashable, CaseIterable, Codable {
    /// Signed RS256 under the active key's `kid` by a key `/auth/keys` never published: only the
    /// signature check catches it, not a lookup of the `kid`.
    case unpublishedKey = "unpublished-key"
    /// `{"alg":"none"}` and an empty signature.
    case algNone = "alg-none"
    /// HS256 whose HMAC key is the active public key's PEM (the algorithm-confusion attack).
    case hs256
    case wrongAudience = "wrong-aud"
    case wrongIssuer = "wrong-iss"
    /// `exp` ten minutes ago, beyond any reasonable leeway.
    case expired
    /// `iat` an hour from now.
    case futureIssuedAt = "future-iat"
    case wrongNonce = "wrong-nonce"
    case missingNonce = "missing-nonce"
    /// `at_hash` of another access token. The token endpoint's id_token carries `at_hash`, not
    /// `c_hash` (the code is what the app sent; spec §9), so this is the hash fault it can show.
    case wrongAccessTokenHash = "wrong-at-hash"
    /// Another `sub` than the authorization's: the code's user swapped for someone else.
    case otherSubject = "sub-mismatch"
    /// `invalid_grant` for a code that is valid (the code stays unredeemed).
    case invalidGrant = "invalid-grant"
    /// A 500 `server_error`.
    case serverError = "server-error"
    /// Nothing for the armed delay, then the genuine answer: an app without a timeout signs in late.
    case timeout

    /// The faults that change the id_token (the others change the whole answer).
    public var corruptsIdentityToken: Bool {
        switch self {
        case .invalidGrant, .serverError, .timeout: false
        default: true
        }
    }
}

/// A fault armed for one client: taken by the first token response for it, and only by that one.
public struct ArmedTokenFault: Sendable, Hashable {
    public var fault: TokenFault
    /// How long ``TokenFault/timeout`` keeps the token endpoint silent.
    public var delay: Duration

    public init(_ fault: TokenFault, delay: Duration = .zero) {
        self.fault = fault
        self.delay = delay
    }
}

extension TokenFault: IdentityTokenDefect {
    /// The claims with this fault's defect; the faults of the signature leave them as they are.
    public func corrupt(_ claims: inout IdentityTokenClaims) {
        switch self {
        case .wrongAudience: claims.audience = "com.example.not-your-app"
        case .wrongIssuer: claims.issuer = "https://appleid.example.invalid"
        case .expired:
            let lifetime = claims.expiresAt - claims.issuedAt
            claims.expiresAt = claims.issuedAt - 600
            claims.issuedAt = claims.expiresAt - lifetime
        case .futureIssuedAt:
            let lifetime = claims.expiresAt - claims.issuedAt
            claims.issuedAt += 3600
            claims.expiresAt = claims.issuedAt + lifetime
        case .wrongNonce: claims.nonce = "not-the-nonce-your-app-sent"
        case .missingNonce: claims.nonce = nil
        case .wrongAccessTokenHash: claims.accessTokenHash = TokenHash.of("not the access token of this answer")
        case .otherSubject: claims.subject = Subject(rawValue: "000000.0123456789abcdef0123456789abcdef.0000")
        case .unpublishedKey, .algNone, .hs256, .invalidGrant, .serverError, .timeout: break
        }
    }

    public var signature: IdentityTokenSignature {
        switch self {
        case .unpublishedKey: .unpublishedKey
        case .algNone: .algNone
        case .hs256: .hs256
        default: .activeKey
        }
    }
}

/// The armed faults of this engine instance, one per client: the engine's ``TokenFaultSwitch`` in
/// development mode (`siwa serve --development` and the emulator start the engine with one). Kept in
/// memory, not in the store: a fault is a development aid armed just before the request it spoils, so
/// with several instances it must be armed on the instance that answers (`siwa check` runs one server).
public final class TokenFaults: TokenFaultSwitch {
    private let armed = Mutex<[ClientID: ArmedTokenFault]>([:])
    let logger: Logger

    public init(logger: Logger = Logger(label: "AppleIDProvider")) { self.logger = logger }

    func arm(_ fault: ArmedTokenFault, for client: ClientID) { armed.withLock { $0[client] = fault } }

    /// Removes and returns the client's fault: under the lock, so of two concurrent token requests
    /// exactly one gets it.
    func takeArmed(for client: ClientID) -> ArmedTokenFault? { armed.withLock { $0.removeValue(forKey: client) } }

    func disarm(_ client: ClientID) { armed.withLock { _ = $0.removeValue(forKey: client) } }

    public func disarmAll() { armed.withLock { $0.removeAll() } }

    /// Takes the client's armed fault for this token response, and answers the faults that replace
    /// the whole answer: an error, or a silence before the genuine answer. Returns the fault left for
    /// the id_token, if any.
    public func take(for client: ClientID) async throws -> (any IdentityTokenDefect)? {
        guard let armed = takeArmed(for: client) else { return nil }
        logger.notice("token fault taken", metadata: ["client_id": "\(client)", "fault": "\(armed.fault.rawValue)"])
        switch armed.fault {
        case .invalidGrant:
            throw OAuthError.invalidGrant(AppleErrorDescription.codeExpiredOrRevoked, reason: "the fault switch answered invalid_grant")
        case .serverError:
            throw OAuthError(.serverError, status: 500, reason: "the fault switch answered 500")
        case .timeout:
            // Cancelled with the request when the app gives up, as an app's timeout should make it.
            try await Task.sleep(for: armed.delay)
            return nil
        default:
            return armed.fault
        }
    }
}
