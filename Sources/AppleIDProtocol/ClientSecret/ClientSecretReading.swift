/// A client secret read once: its compact JWS, JOSE header and claims, each claim as sent (a claim
/// of the wrong type is kept apart from a missing one, so that the rules can say which).
public struct ClientSecretReading: Sendable {
    /// A claim as it was sent.
    public enum Claim<Value: Sendable & Hashable>: Sendable, Hashable {
        case missing
        /// Present with another JSON type (an `aud` array, a string `exp`, a fraction).
        case wrongType
        case value(Value)

        public var value: Value? {
            if case .value(let value) = self { return value }
            return nil
        }
    }

    /// An `aud` claim: Apple requires a string; some JWT libraries send an array by default.
    public enum Audience: Sendable, Hashable {
        case string(String)
        case array([String])
    }

    /// The claims of spec §5, unverified.
    public struct Claims: Sendable, Hashable {
        public var issuer: Claim<String>
        public var subject: Claim<String>
        public var audience: Claim<Audience>
        public var issuedAt: Claim<Int>
        public var expiresAt: Claim<Int>
    }

    /// The token split into segments, or why it cannot be.
    public let jws: Result<CompactJWS, CompactJWSError>
    /// `nil` when the secret is not a compact JWS or its header is not base64url JSON.
    public let header: JOSEHeader?
    /// `nil` when the secret is not a compact JWS or its payload is not a base64url JSON object.
    public let claims: Claims?

    public init(_ secret: String) {
        jws = Result { () throws(CompactJWSError) in try CompactJWS(secret) }
        let token = try? jws.get()
        header = try? token?.header()
        claims = try? token?.claims(as: DecodedClaims.self).claims
    }

    /// Lenient about each claim's type, strict about the whole: the payload must be a JSON object.
    private struct DecodedClaims: Decodable {
        let claims: Claims

        enum CodingKeys: String, CodingKey {
            case iss, sub, aud, iat, exp
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func claim<Value: Decodable>(_ key: CodingKeys, _ type: Value.Type) -> Claim<Value> {
                guard container.contains(key), (try? container.decodeNil(forKey: key)) == false else { return .missing }
                return (try? container.decode(type, forKey: key)).map { .value($0) } ?? .wrongType
            }
            let audience: Claim<Audience> =
                switch claim(.aud, String.self) {
                case .value(let text): .value(.string(text))
                case .missing: .missing
                case .wrongType: claim(.aud, [String].self).value.map { .value(.array($0)) } ?? .wrongType
                }
            claims = Claims(
                issuer: claim(.iss, String.self), subject: claim(.sub, String.self), audience: audience,
                issuedAt: claim(.iat, Int.self), expiresAt: claim(.exp, Int.self))
        }
    }
}
