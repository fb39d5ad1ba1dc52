import AppleIDProtocol

extension IdentityTokenClaims {
    /// Reads the claims with ``FlatJSON``, with the same rules as their `Decodable` conformance:
    /// `iss`, `aud`, `sub` strings, `exp`, `iat` integers, optional claims of their types (`null` is
    /// absent), the two boolean claims as JSON booleans or `"true"`/`"false"`.
    init(flatJSON bytes: [UInt8]) throws {
        try self.init(members: try FlatJSON.parse(bytes))
    }

    /// The claims of members ``FlatJSON`` has read.
    init(members: [(key: String, value: FlatJSON.Value)]) throws {
        func member(_ key: String) -> FlatJSON.Value? { members.first { $0.key == key }?.value }
        func string(_ key: String) throws -> String? {
            switch member(key) {
            case nil, .null: return nil
            case .string(let value): return value
            default: throw FlatJSON.Malformed()
            }
        }
        func integer(_ key: String) throws -> Int? {
            switch member(key) {
            case nil, .null: return nil
            case .integer(let value): return value
            default: throw FlatJSON.Malformed()
            }
        }
        func boolean(_ key: String) throws -> Bool? {
            switch member(key) {
            case nil, .null: return nil
            case .boolean(let value): return value
            default: throw FlatJSON.Malformed()
            }
        }
        func booleanClaim(_ key: String) throws -> BooleanClaim? {
            switch member(key) {
            case nil, .null: return nil
            case .boolean(let value): return BooleanClaim(value, style: .boolean)
            case .string("true"): return BooleanClaim(true, style: .string)
            case .string("false"): return BooleanClaim(false, style: .string)
            default: throw FlatJSON.Malformed()
            }
        }
        guard let issuer = try string("iss"), let audience = try string("aud"), let expiresAt = try integer("exp"),
            let issuedAt = try integer("iat"), let subject = try string("sub")
        else { throw FlatJSON.Malformed() }
        self.init(
            issuer: issuer, audience: audience, expiresAt: expiresAt, issuedAt: issuedAt, subject: Subject(rawValue: subject),
            nonce: try string("nonce"), codeHash: try string("c_hash"), accessTokenHash: try string("at_hash"), email: try string("email"),
            emailVerified: try booleanClaim("email_verified"), isPrivateEmail: try booleanClaim("is_private_email"),
            authTime: try integer("auth_time"), nonceSupported: try boolean("nonce_supported"), realUserStatus: try integer("real_user_status"),
            transferSubject: try string("transfer_sub").map(Subject.init(rawValue:)), organizationID: try string("org_id"))
    }
}

extension FlatJSON {
    /// `nbf` (RFC 7519 §4.1.5): absent or `null` is nil, an integer is the time, anything else is malformed.
    /// Apple's tokens carry none; a token that does is honoured.
    static func notBefore(in members: [(key: String, value: Value)]) throws -> Int? {
        switch members.first(where: { $0.key == "nbf" })?.value {
        case nil, .null: return nil
        case .integer(let value): return value
        default: throw Malformed()
        }
    }
}
