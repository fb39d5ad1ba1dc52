/// Apple's rules for a client secret (spec §5), in the order they are judged: the form first, then
/// the header and the signature, then the claims, so that the first failure of a forged secret is
/// its signature and not a claim nobody signed.
public enum ClientSecretRule: String, Sendable, Hashable, CaseIterable {
    case structure
    case algorithm = "alg"
    case keyID = "kid"
    case signatureEncoding = "signature encoding"
    case signature
    case issuer = "iss"
    case subject = "sub"
    case audience = "aud"
    case issuedAt = "iat"
    case expiry = "exp"
    case lifetime
}

/// The verdict on one rule, with the values involved. The explanation quotes claims from outside
/// (shortened), never the secret itself, so it may be logged.
public struct ClientSecretVerdict: Sendable, Hashable {
    public var rule: ClientSecretRule
    public var passed: Bool
    public var explanation: String

    public init(rule: ClientSecretRule, passed: Bool, explanation: String) {
        self.rule = rule
        self.passed = passed
        self.explanation = explanation
    }
}
