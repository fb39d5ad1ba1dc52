import Crypto

/// Apple's rules for a client secret (spec §5), judged one by one, the one rulebook of the house:
/// the identity provider's client authenticator acts on the first failure (and answers Apple's bare
/// `invalid_client`), the kit's `ClientSecretInspector` and `siwa doctor` list every verdict.
///
/// Each rule is settled by Apple's documentation ("Creating a client secret", TN3107); where Apple
/// documents nothing, the rule says so and what we chose.
public struct ClientSecretRulebook: Sendable {
    /// The expected `sub`; without it only its presence is checked.
    public var clientID: String?
    /// The expected `iss`; without it only its shape is checked.
    public var teamID: String?
    /// The expected `kid`; without it only its shape is checked.
    public var keyID: String?
    /// The accepted `aud` values: Apple's issuer, or this server's.
    public var audiences: Set<String>
    /// The key the signature is checked with; without it the `signature` rule fails as not checked.
    public var publicKey: P256.Signing.PublicKey?
    /// How far in the future `iat` may be, in seconds.
    public var issuedAtSkew: Int

    /// Apple's issuer, the `aud` Apple requires.
    public static let appleAudience = "https://appleid.apple.com"
    /// The tolerated clock difference for `iat`. Apple documents none for client secrets; 60 s is
    /// the leeway the kit gives Apple's own tokens, and it spares a relying party whose clock runs
    /// a little ahead a refusal that Apple may well not give.
    public static let defaultIssuedAtSkew = 60

    public init(
        clientID: String? = nil, teamID: String? = nil, keyID: String? = nil, audiences: Set<String> = [appleAudience],
        publicKey: P256.Signing.PublicKey? = nil, issuedAtSkew: Int = defaultIssuedAtSkew
    ) {
        self.clientID = clientID
        self.teamID = teamID
        self.keyID = keyID
        self.audiences = audiences
        self.publicKey = publicKey
        self.issuedAtSkew = issuedAtSkew
    }

    /// Every rule's verdict, in ``ClientSecretRule`` order, at `now` (seconds since 1970).
    public func verdicts(on secret: ClientSecretReading, now: Int) -> [ClientSecretVerdict] {
        ClientSecretRule.allCases.map { verdict($0, on: secret, now: now) }
    }

    /// The first of `rules` (in their order) that the secret fails, or `nil`: what an authenticator acts on.
    public func firstFailure(
        on secret: ClientSecretReading, now: Int, among rules: some Sequence<ClientSecretRule> = ClientSecretRule.allCases
    ) -> ClientSecretVerdict? {
        rules.lazy.map { verdict($0, on: secret, now: now) }.first { !$0.passed }
    }

    /// The verdict on one rule.
    public func verdict(_ rule: ClientSecretRule, on secret: ClientSecretReading, now: Int) -> ClientSecretVerdict {
        let (passed, explanation): (Bool, String) =
            switch rule {
            case .structure: structure(secret)
            case .algorithm:
                secret.header?.algorithm == "ES256"
                    ? (true, "alg is ES256") : (false, "alg is \(Self.quoted(secret.header?.algorithm)); Apple requires ES256")
            case .keyID: identifier("kid", secret.header?.keyID.map { .value($0) } ?? .missing, expected: keyID, what: "Key ID")
            case .signatureEncoding: signatureEncoding(secret)
            case .signature: signature(secret)
            case .issuer: identifier("iss", secret.claims?.issuer ?? .missing, expected: teamID, what: "Team ID")
            case .subject: subject(secret.claims?.subject ?? .missing)
            case .audience: audience(secret.claims?.audience ?? .missing)
            case .issuedAt: issuedAt(secret.claims?.issuedAt ?? .missing, now: now)
            case .expiry: expiry(secret.claims?.expiresAt ?? .missing, now: now)
            case .lifetime: lifetime(secret.claims?.expiresAt.value, now: now)
            }
        return ClientSecretVerdict(rule: rule, passed: passed, explanation: explanation)
    }

    private func structure(_ secret: ClientSecretReading) -> (Bool, String) {
        if case .failure(let error) = secret.jws { return (false, error.description) }
        guard secret.header != nil else { return (false, "the header is not base64url JSON") }
        guard secret.claims != nil else { return (false, "the payload is not base64url JSON") }
        return (true, "a compact JWS with a JSON header and claims")
    }

    /// `kid` and `iss`: Apple documents both as 10-character identifiers, and issues only upper-case
    /// letters and digits; the same shape is required even of an identifier registered otherwise.
    private func identifier(_ name: String, _ claim: ReadingClaim<String>, expected: String?, what: String) -> (Bool, String) {
        guard let value = claim.value else { return (false, "\(name) is \(Self.describe(claim)); Apple requires the 10-character \(what)") }
        guard value.count == 10 else { return (false, "\(name) \(Self.quoted(value)) has \(value.count) characters; a \(what) has 10") }
        guard Self.hasAppleIdentifierShape(value) else {
            return (false, "\(name) \(Self.quoted(value)) is not a \(what): Apple's are 10 upper-case letters and digits")
        }
        if let expected, !WireMatch.exact(value, expected) {
            return (false, "\(name) is \(Self.quoted(value)), expected the \(what) \"\(expected)\"")
        }
        return (true, "\(name) is the \(what) \"\(value)\"" + (expected == nil ? " (10 characters; none was expected)" : ""))
    }

    /// Ten upper-case ASCII letters and digits: the shape of Team IDs and Key IDs.
    public static func hasAppleIdentifierShape(_ value: String) -> Bool {
        value.utf8.count == 10
            && value.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// TN3107: `sub` is the `client_id` the request uses, compared case-sensitively.
    private func subject(_ claim: ReadingClaim<String>) -> (Bool, String) {
        guard let sub = claim.value, !sub.isEmpty else { return (false, "sub is \(Self.describe(claim)); Apple requires the client_id") }
        guard let clientID else { return (true, "sub is \(Self.quoted(sub)) (no client ID was expected; it must equal the request's client_id)") }
        guard WireMatch.exact(sub, clientID) else {
            return (false, "sub is \(Self.quoted(sub)), expected the client ID \"\(clientID)\" (case-sensitive)")
        }
        return (true, "sub is the client ID \"\(sub)\"")
    }

    /// `aud` is one JSON string (spec §5). An array, even of the right value, gets its own reason:
    /// golang-jwt v4 and go-jose v2 write one by default, and Apple refuses it.
    private func audience(_ claim: ReadingClaim<ClientSecretReading.Audience>) -> (Bool, String) {
        let expected = audiences.sorted().joined(separator: " or ")
        switch claim.value {
        case .string(let aud) where audiences.containsExactly(aud): return (true, "aud is \(aud)")
        case .string(let aud): return (false, "aud is \(Self.quoted(aud)); expected \(expected)")
        case .array(let values):
            return (
                false,
                "aud is a JSON array (\(values.count) element\(values.count == 1 ? "" : "s")); Apple requires the string \(expected), not an array"
            )
        case nil: return (false, "aud is \(Self.describe(claim)); expected the string \(expected)")
        }
    }
}

typealias ReadingClaim<Value: Sendable & Hashable> = ClientSecretReading.Claim<Value>
