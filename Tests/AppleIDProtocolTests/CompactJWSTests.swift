import AppleIDProtocol
import Foundation
import Testing

@Suite("Compact JWS reader: one split, base64url, header and claims (RFC 7515 §7.1)")
struct CompactJWSTests {
    static func segment(_ json: String) -> String { Base64URL.encode(Array(json.utf8)) }
    static let header = segment(#"{"alg":"RS256","kid":"KEY1234567","typ":"JWT","x5u":"https://evil.example"}"#)
    static let payload = segment(#"{"iss":"https://appleid.apple.com","sub":"000123.abc.0123"}"#)
    static let signature = Base64URL.encode([1, 2, 3])
    static let token = "\(header).\(payload).\(signature)"

    struct Issuer: Decodable, Equatable { let iss: String }

    @Test("a token splits once into its segments; the signing input is header.payload")
    func segments() throws {
        let jws = try CompactJWS(Self.token)
        #expect(String(decoding: jws.headerSegment, as: UTF8.self) == Self.header)
        #expect(String(decoding: jws.payloadSegment, as: UTF8.self) == Self.payload)
        #expect(String(decoding: jws.signatureSegment, as: UTF8.self) == Self.signature)
        #expect(String(decoding: jws.signingInput, as: UTF8.self) == "\(Self.header).\(Self.payload)")
        #expect(try jws.signatureBytes() == [1, 2, 3])
    }

    @Test("the header reads alg, kid and typ, and names every member")
    func header() throws {
        let header = try CompactJWS(Self.token).header()
        #expect(header.algorithm == "RS256")
        #expect(header.keyID == "KEY1234567")
        #expect(header.type == "JWT")
        #expect(header.memberNames == ["alg", "kid", "typ", "x5u"])
    }

    @Test("a header member of the wrong type reads as nil; a header that is not an object is refused")
    func headerTypes() throws {
        let lenient = try CompactJWS("\(Self.segment(#"{"alg":7,"kid":["a"]}"#)).\(Self.payload).").header()
        #expect(lenient.algorithm == nil && lenient.keyID == nil)
        #expect(lenient.memberNames == ["alg", "kid"])
        #expect(throws: CompactJWSError.notJSON(.header)) { try CompactJWS("\(Self.segment("[1]")).\(Self.payload).").header() }
        #expect(throws: CompactJWSError.notBase64URL(.header)) { try CompactJWS("a*b.\(Self.payload).").header() }
    }

    @Test("the claims decode as the type asked for")
    func claims() throws {
        #expect(try CompactJWS(Self.token).claims(as: Issuer.self) == Issuer(iss: "https://appleid.apple.com"))
        #expect(throws: CompactJWSError.notBase64URL(.payload)) { try CompactJWS("\(Self.header).!!.").claims(as: Issuer.self) }
    }

    @Test("anything but three segments is refused with the count", arguments: [("abc", 1), ("a.b", 2), ("a.b.c.d", 4), ("....", 5)])
    func segmentCount(_ token: String, _ count: Int) {
        #expect(throws: CompactJWSError.segmentCount(count)) { try CompactJWS(token) }
        #expect(CompactJWSError.segmentCount(count).description == "a compact JWS has 3 segments, found \(count)")
    }

    @Test("empty segments are segments: `..` is three of them")
    func emptySegments() throws {
        let jws = try CompactJWS("..")
        #expect(jws.headerSegment.isEmpty && jws.payloadSegment.isEmpty && jws.signatureSegment.isEmpty)
        #expect(throws: CompactJWSError.notJSON(.header)) { try jws.header() }
    }

    @Test("a token over the limit is refused before it is split")
    func tooLarge() {
        let token = String(repeating: "a", count: 101)
        #expect(throws: CompactJWSError.tooLarge(bytes: 101, limit: 100)) { try CompactJWS(token, maximumBytes: 100) }
        #expect(throws: Never.self) { try CompactJWS("a.b.c", maximumBytes: 5) }
    }
}
