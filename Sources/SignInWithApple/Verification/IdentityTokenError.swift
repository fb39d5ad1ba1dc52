/// Why an identity token (or a notification) was refused. Each case names the one rule it broke.
public enum IdentityTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    case malformed(String)
    /// The token is over ``TokenLimits/maximumTokenBytes``: refused before anything is decoded.
    case tooLarge(bytes: Int, limit: Int)
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
    /// `nbf` is later than now plus the leeway.
    case notYetValid(notBefore: Int, now: Int)
    /// `sub`, `aud` or `iss` is empty or over ``TokenLimits/maximumIdentifierBytes``.
    case claimLengthOutOfBounds(claim: String, bytes: Int)
    case nonceMismatch
    /// The token's nonce is the nonce given in the other convention: the SHA-256 (hex) of the raw
    /// value where the raw value was `expected` (``Nonce/Convention/plain``), or the reverse.
    case nonceConventionMismatch(expected: Nonce.Convention)
    /// A nonce was expected, the token has none, and `nonce_supported` is true.
    case nonceMissing
    case accessTokenHashMismatch
    case codeHashMismatch

    public var description: String {
        switch self {
        case .malformed(let reason): "the token is malformed: \(reason)"
        case .tooLarge(let bytes, let limit):
            "the token is \(bytes) bytes, over the limit of \(limit) (Apple's tokens are under 2 KiB); refused before decoding anything"
        case .unsupportedAlgorithm(let alg): "alg \(alg) is not accepted; only RS256"
        case .forbiddenHeader(let name): "the header carries \(name); keys come only from the key set"
        case .missingKeyID: "the header has no kid"
        case .unknownKeyID(let kid): "no key with kid \(kid), even after refetching the key set"
        case .keySetUnavailable(let reason): "the key set is unavailable: \(reason)"
        case .invalidSignature: "the signature does not verify"
        case .wrongIssuer(let issuer): "iss \(issuer) is not an accepted issuer"
        case .wrongAudience(let audience): "aud \(audience) is not one of this app's client IDs"
        case .expired(let expiresAt, let now): "expired at \(expiresAt), \(now - expiresAt) s ago"
        case .issuedInTheFuture(let issuedAt, let now):
            "issued \(issuedAt - now) s in the future: the issuer's clock is ahead of this server's (clock skew;"
                + " against a local siwa server whose clock was moved, `siwa clock reset`)"
        case .notYetValid(let notBefore, let now): "not valid before \(notBefore) (nbf), \(notBefore - now) s from now"
        case .claimLengthOutOfBounds(let claim, let bytes):
            bytes == 0
                ? "\(claim) is empty" : "\(claim) is \(bytes) bytes, over the limit of \(TokenLimits.maximumIdentifierBytes)"
        case .nonceMismatch: "the nonce does not match the one sent"
        case .nonceConventionMismatch(expected: .plain):
            "the token's nonce is the SHA-256 (hex) of the raw nonce given: the request sent the hash, as native apps do; "
                + "verify with Nonce(raw: raw, convention: .sha256)"
        case .nonceConventionMismatch(expected: .sha256):
            "the token's nonce is the raw nonce given, not its SHA-256 (hex): the request sent the raw value, as the web does; "
                + "verify with Nonce(raw: raw, convention: .plain)"
        case .nonceMissing: "the token carries no nonce although nonce_supported is true"
        case .accessTokenHashMismatch: "at_hash does not match the access token"
        case .codeHashMismatch: "c_hash does not match the authorization code"
        }
    }
}
