/// The value of one member of an ``OrderedJSONObject``.
public enum JSONMemberValue: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case strings([String])
}

/// A flat JSON object whose members are written in a fixed order.
///
/// Foundation's `JSONEncoder` on Linux does not keep key order; Apple writes its tokens, JWKS,
/// token answers and errors in one order (`iss, aud, exp, iat, sub, …`), so those are written with
/// this instead.
public protocol OrderedJSONObject {
    var orderedMembers: [(key: String, value: JSONMemberValue)] { get }
}

public enum OrderedJSON {
    /// Compact JSON with members in order, `/` unescaped, non-ASCII as UTF-8 (RFC 8259).
    public static func encode(_ object: some OrderedJSONObject) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in object.orderedMembers.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            appendString(member.key, to: &output)
            output.append(UInt8(ascii: ":"))
            switch member.value {
            case .string(let value): appendString(value, to: &output)
            case .integer(let value): output.append(contentsOf: Array(String(value).utf8))
            case .boolean(let value): output.append(contentsOf: Array((value ? "true" : "false").utf8))
            case .strings(let values):
                output.append(UInt8(ascii: "["))
                for (index, value) in values.enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    appendString(value, to: &output)
                }
                output.append(UInt8(ascii: "]"))
            }
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    static func appendString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                output.append(contentsOf: [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension IdentityTokenClaims: OrderedJSONObject {
    /// Apple's claim order (spec §9.4).
    public var orderedMembers: [(key: String, value: JSONMemberValue)] {
        var members: [(key: String, value: JSONMemberValue)] = [
            ("iss", .string(issuer)), ("aud", .string(audience)), ("exp", .integer(expiresAt)), ("iat", .integer(issuedAt)),
            ("sub", .string(subject.rawValue)),
        ]
        if let nonce { members.append(("nonce", .string(nonce))) }
        if let codeHash { members.append(("c_hash", .string(codeHash))) }
        if let accessTokenHash { members.append(("at_hash", .string(accessTokenHash))) }
        if let email { members.append(("email", .string(email))) }
        if let emailVerified { members.append(("email_verified", emailVerified.scalar)) }
        if let isPrivateEmail { members.append(("is_private_email", isPrivateEmail.scalar)) }
        if let authTime { members.append(("auth_time", .integer(authTime))) }
        if let nonceSupported { members.append(("nonce_supported", .boolean(nonceSupported))) }
        if let realUserStatus { members.append(("real_user_status", .integer(realUserStatus))) }
        if let transferSubject { members.append(("transfer_sub", .string(transferSubject.rawValue))) }
        if let organizationID { members.append(("org_id", .string(organizationID))) }
        return members
    }
}

extension BooleanClaim {
    var scalar: JSONMemberValue { style == .boolean ? .boolean(value) : .string(value ? "true" : "false") }
}

extension PublishedKeySet.Key: OrderedJSONObject {
    /// Apple's member order: `kty, kid, use, alg, n, e` (spec §7).
    public var orderedMembers: [(key: String, value: JSONMemberValue)] {
        [("kty", .string(kty)), ("kid", .string(kid.rawValue)), ("use", .string(use)), ("alg", .string(alg)), ("n", .string(n)), ("e", .string(e))]
    }
}

extension PublishedKeySet {
    /// `{"keys":[…]}` with every key's members in Apple's order.
    public var orderedJSON: [UInt8] {
        var output = Array(#"{"keys":["#.utf8)
        for (index, key) in keys.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: OrderedJSON.encode(key))
        }
        output.append(contentsOf: Array("]}".utf8))
        return output
    }
}
