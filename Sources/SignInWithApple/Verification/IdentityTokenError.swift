/// Why an identity token (or a notification) was refused: the one rule it broke (``kind``), the
/// values involved, and a ``description`` that says what to do.
///
/// A struct with static members, as jwt-kit's `JWTError`, so that a new rule breaks no caller:
/// `throw IdentityTokenError.nonceMismatch`, compare with `==`, match with
/// `catch IdentityTokenError.nonceMismatch` or `catch let error as IdentityTokenError where error.kind == .expired`.
public struct IdentityTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule a token broke; new kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        public let description: String
        private init(_ name: String) { description = name }

        public static let malformed = Kind("malformed")
        public static let tooLarge = Kind("tooLarge")
        public static let unsupportedAlgorithm = Kind("unsupportedAlgorithm")
        public static let forbiddenHeader = Kind("forbiddenHeader")
        public static let missingKeyID = Kind("missingKeyID")
        public static let unknownKeyID = Kind("unknownKeyID")
        public static let keySetUnavailable = Kind("keySetUnavailable")
        public static let invalidSignature = Kind("invalidSignature")
        public static let wrongIssuer = Kind("wrongIssuer")
        public static let wrongAudience = Kind("wrongAudience")
        public static let expired = Kind("expired")
        public static let issuedInTheFuture = Kind("issuedInTheFuture")
        public static let notYetValid = Kind("notYetValid")
        public static let claimLengthOutOfBounds = Kind("claimLengthOutOfBounds")
        public static let nonceMismatch = Kind("nonceMismatch")
        public static let nonceConventionMismatch = Kind("nonceConventionMismatch")
        public static let nonceMissing = Kind("nonceMissing")
        public static let accessTokenHashMismatch = Kind("accessTokenHashMismatch")
        public static let codeHashMismatch = Kind("codeHashMismatch")
    }

    public let kind: Kind
    /// The value the rule is about: the `alg`, header name, `kid`, `iss`, `aud` or claim name; for
    /// ``Kind/malformed`` and ``Kind/keySetUnavailable``, the reason.
    public let value: String?
    /// The time in the token the rule is about (`exp`, `iat` or `nbf`), and the verifier's now, in
    /// seconds since 1970.
    public let tokenTime: Int?
    public let now: Int?
    /// For ``Kind/tooLarge`` and ``Kind/claimLengthOutOfBounds``: the size found, and the limit.
    public let bytes: Int?
    public let limit: Int?
    /// For ``Kind/nonceConventionMismatch``: the convention the nonce was given in.
    public let expectedConvention: Nonce.Convention?
    public let description: String

    private init(
        _ kind: Kind, _ description: String, value: String? = nil, tokenTime: Int? = nil, now: Int? = nil, bytes: Int? = nil,
        limit: Int? = nil, expectedConvention: Nonce.Convention? = nil
    ) {
        self.kind = kind
        self.description = description
        self.value = value
        self.tokenTime = tokenTime
        self.now = now
        self.bytes = bytes
        self.limit = limit
        self.expectedConvention = expectedConvention
    }

    public static func malformed(_ reason: String) -> Self { Self(.malformed, "the token is malformed: \(reason)", value: reason) }
    /// The token is over ``TokenLimits/maximumTokenBytes``: refused before anything is decoded.
    public static func tooLarge(bytes: Int, limit: Int) -> Self {
        Self(
            .tooLarge, "the token is \(bytes) bytes, over the limit of \(limit) (Apple's tokens are under 2 KiB); refused before decoding anything",
            bytes: bytes, limit: limit)
    }
    /// Only RS256 is accepted: `none`, `HS256` (keyed with the public key), `ES256`, … are refused.
    public static func unsupportedAlgorithm(_ alg: String) -> Self {
        Self(.unsupportedAlgorithm, "alg \(alg) is not accepted; only RS256", value: alg)
    }
    /// Headers that point at keys (`jku`, `x5u`, `jwk`, `x5c`) or demand extensions (`crit`): the key
    /// always comes from the environment's key set, so such tokens are refused outright.
    public static func forbiddenHeader(_ name: String) -> Self {
        Self(.forbiddenHeader, "the header carries \(name); keys come only from the key set", value: name)
    }
    public static let missingKeyID = Self(.missingKeyID, "the header has no kid")
    public static func unknownKeyID(_ kid: String) -> Self {
        Self(.unknownKeyID, "no key with kid \(kid), even after refetching the key set", value: kid)
    }
    public static func keySetUnavailable(_ reason: String) -> Self {
        Self(.keySetUnavailable, "the key set is unavailable: \(reason)", value: reason)
    }
    public static let invalidSignature = Self(.invalidSignature, "the signature does not verify")
    public static func wrongIssuer(_ issuer: String) -> Self { Self(.wrongIssuer, "iss \(issuer) is not an accepted issuer", value: issuer) }
    public static func wrongAudience(_ audience: String) -> Self {
        Self(.wrongAudience, "aud \(audience) is not one of this app's client IDs", value: audience)
    }
    public static func expired(expiresAt: Int, now: Int) -> Self {
        Self(.expired, "expired at \(expiresAt), \(now - expiresAt) s ago", tokenTime: expiresAt, now: now)
    }
    public static func issuedInTheFuture(issuedAt: Int, now: Int) -> Self {
        Self(
            .issuedInTheFuture,
            "issued \(issuedAt - now) s in the future: the issuer's clock is ahead of this server's (clock skew;"
                + " against a local siwa server whose clock was moved, `siwa clock reset`)", tokenTime: issuedAt, now: now)
    }
    /// `nbf` is later than now plus the leeway.
    public static func notYetValid(notBefore: Int, now: Int) -> Self {
        Self(.notYetValid, "not valid before \(notBefore) (nbf), \(notBefore - now) s from now", tokenTime: notBefore, now: now)
    }
    /// `sub`, `aud` or `iss` is empty or over ``TokenLimits/maximumIdentifierBytes``.
    public static func claimLengthOutOfBounds(claim: String, bytes: Int) -> Self {
        let limit = TokenLimits.maximumIdentifierBytes
        return Self(
            .claimLengthOutOfBounds, bytes == 0 ? "\(claim) is empty" : "\(claim) is \(bytes) bytes, over the limit of \(limit)", value: claim,
            bytes: bytes, limit: limit)
    }
    public static let nonceMismatch = Self(.nonceMismatch, "the nonce does not match the one sent")
    /// The token's nonce is the nonce given in the other convention: the SHA-256 (hex) of the raw
    /// value where the raw value was `expected` (``Nonce/Convention/plain``), or the reverse.
    public static func nonceConventionMismatch(expected: Nonce.Convention) -> Self {
        let explanation: String
        switch expected {
        case .plain:
            explanation =
                "the token's nonce is the SHA-256 (hex) of the raw nonce given: the request sent the hash, as native apps do; "
                + "verify with Nonce(raw: raw, convention: .sha256)"
        case .sha256:
            explanation =
                "the token's nonce is the raw nonce given, not its SHA-256 (hex): the request sent the raw value, as the web does; "
                + "verify with Nonce(raw: raw, convention: .plain)"
        }
        return Self(.nonceConventionMismatch, explanation, expectedConvention: expected)
    }
    /// A nonce was expected, the token has none, and `nonce_supported` is true.
    public static let nonceMissing = Self(.nonceMissing, "the token carries no nonce although nonce_supported is true")
    public static let accessTokenHashMismatch = Self(.accessTokenHashMismatch, "at_hash does not match the access token")
    public static let codeHashMismatch = Self(.codeHashMismatch, "c_hash does not match the authorization code")
}

extension IdentityTokenError: MatchableError {}
