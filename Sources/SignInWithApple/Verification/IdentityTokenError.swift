/// Why an identity token (or a notification) was refused. Each case names the one rule it broke.
public enum IdentityTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    case malformed(String)
    /// Only RS256 is accepted: `none`, `HS256` (keyed with the public key), `ES256`, … are refused.
    case unsupportedAlgorithm(String)
    /// Headers that point at keys (`jku`, `x5u`, `jwk`, `x5c`) or demand extensions (`crit`): the key
    /// always comes from the environment's key set, so such tokens are refused outright.
    case forbiddenHeader(String)
    case missingKeyID
    case unknownKeyID(String)
    case keySetUnavailable(String)
    case invalidSignature
    case wrongIssuer(String)
    case wrongAudience(String)
    case expired(expiresAt: Int, now: Int)
    case issuedInTheFuture(issuedAt: Int, now: Int)
    case nonceMismatch
    /// A nonce was expected, the token has none, and `nonce_supported` is true.
    case nonceMissing
    case accessTokenHashMismatch
    case codeHashMismatch

    public var description: String {
        switch self {
        case .malformed(let reason): "the token is malformed: \(reason)"
        case .unsupportedAlgorithm(let alg): "alg \(alg) is not accepted; only RS256"
        case .forbiddenHeader(let name): "the header carries \(name); keys come only from the key set"
        case .missingKeyID: "the header has no kid"
        case .unknownKeyID(let kid): "no key with kid \(kid), even after refetching the key set"
        case .keySetUnavailable(let reason): "the key set is unavailable: \(reason)"
        case .invalidSignature: "the signature does not verify"
        case .wrongIssuer(let issuer): "iss \(issuer) is not an accepted issuer"
        case .wrongAudience(let audience): "aud \(audience) is not one of this app's client IDs"
        case .expired(let expiresAt, let now): "expired at \(expiresAt), \(now - expiresAt) s ago"
        case .issuedInTheFuture(let issuedAt, let now): "issued \(issuedAt - now) s in the future"
        case .nonceMismatch: "the nonce does not match the one sent"
        case .nonceMissing: "the token carries no nonce although nonce_supported is true"
        case .accessTokenHashMismatch: "at_hash does not match the access token"
        case .codeHashMismatch: "c_hash does not match the authorization code"
        }
    }
}
