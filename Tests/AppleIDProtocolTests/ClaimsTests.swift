import AppleIDProtocol
import Foundation
import Testing

@Suite("Identity token claims")
struct ClaimsTests {
    @Test("every real Apple id_token decodes", arguments: Vectors.appleIDTokens)
    func realTokensDecode(path: String) throws {
        let token = try Vectors.text(path)
        let payload = try Base64URL.decode(String(token.split(separator: ".")[1]))
        let claims = try JSONDecoder().decode(IdentityTokenClaims.self, from: Data(payload))
        #expect(claims.issuer == "https://appleid.apple.com")
        #expect(claims.subject.rawValue.wholeMatch(of: #/[0-9]{6}\.[0-9a-f]{32}\.[0-9]{4}/#) != nil)
        #expect(claims.expiresAt > claims.issuedAt)
    }

    @Test("re-encoding Apple's 2020 payload gives Apple's bytes back: same claims, order, types")
    func sameShapeAsApple() throws {
        let token = try Vectors.text("apple/id_tokens/whitepaek_codegrant_eXaunmL.jwt")
        let payload = try Base64URL.decode(String(token.split(separator: ".")[1]))
        let claims = try JSONDecoder().decode(IdentityTokenClaims.self, from: Data(payload))
        #expect(claims.emailVerified == BooleanClaim(true, style: .string))
        #expect(OrderedJSON.encode(claims) == payload)
    }

    @Test(
        "booleans arrive as JSON booleans or as strings",
        arguments: [
            (#"true"#, true, BooleanClaim.Style.boolean), (#"false"#, false, .boolean),
            (#""true""#, true, .string), (#""false""#, false, .string),
        ])
    func booleanClaim(json: String, value: Bool, style: BooleanClaim.Style) throws {
        let claim = try JSONDecoder().decode(BooleanClaim.self, from: Data(json.utf8))
        #expect(claim == BooleanClaim(value, style: style))
        #expect(String(decoding: try JSONEncoder().encode(claim), as: UTF8.self) == json)
    }

    @Test("anything else is not a boolean claim", arguments: [#""yes""#, #"1"#, #""TRUE""#, #"null"#])
    func notABoolean(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(BooleanClaim.self, from: Data(json.utf8)) }
    }

    @Test("ordered JSON escapes what JSON requires and leaves slashes and UTF-8 alone")
    func escaping() {
        struct Object: OrderedJSONObject {
            var orderedMembers: [(key: String, value: JSONMemberValue)] {
                [("b", .string("a\"b\\c/d\n\t\u{01}é")), ("a", .integer(-3)), ("z", .boolean(false))]
            }
        }
        #expect(String(decoding: OrderedJSON.encode(Object()), as: UTF8.self) == #"{"b":"a\"b\\c/d\n\t\u0001é","a":-3,"z":false}"#)
    }

    @Test("the user JSON of a first authorization")
    func userJSON() throws {
        let user = AuthorizedUser(name: .init(firstName: "Maria", lastName: "Ruiz"), email: "ep9ks2tnph@privaterelay.appleid.com")
        let decoded = try AuthorizedUser(jsonString: try user.jsonString())
        #expect(decoded == user)
        #expect(try AuthorizedUser(name: nil, email: "a@b.c").jsonString() == #"{"email":"a@b.c"}"#)
    }
}

@Suite("Request vocabulary")
struct VocabularyTests {
    @Test(
        "response types",
        arguments: [
            ("code", ResponseType.code), ("code id_token", .codeIDToken), ("id_token code", .codeIDToken),
        ])
    func responseTypes(raw: String, expected: ResponseType) {
        #expect(ResponseType(parsing: raw) == expected)
    }

    @Test("unsupported response types", arguments: ["id_token", "token", "code token", "code code", ""])
    func unsupportedResponseTypes(raw: String) {
        #expect(ResponseType(parsing: raw) == nil)
    }

    @Test("scopes split on spaces; a repeated scope is refused")
    func scopes() {
        #expect(Scope.parse("name email") == [.name, .email])
        #expect(Scope.parse(nil) == [])
        #expect(Scope.parse("email email") == nil)
    }
}
