import AppleIDProtocol
import Testing

@Suite("at_hash, c_hash and PKCE")
struct TokenHashTests {
    /// Ping Identity's worked example (developer docs, "Validating an id_token"), which also shows
    /// the intermediate digest c1f82f98 4f55c630 2e76c97d 95ce93a8.
    @Test("at_hash of a published worked example")
    func publishedExample() {
        #expect(TokenHash.of("dNZX1hEZ9wBCzNL40Upu646bdzQA") == "wfgvmE9VxjAudsl9lc6TqA")
    }

    @Test("at_hash of Apple's captured access token (2020, spec §4.1)")
    func appleCapture() {
        #expect(TokenHash.of("a08c1600e80f84d44842ce3342abac413.0.mruy.IyMPSXmTYtMyUCDWDKKN3g") == "hSL8Pkelh5gEnSFyDHHcHA")
    }

    @Test("S256 challenge of RFC 7636 Appendix B")
    func pkce() {
        #expect(TokenHash.pkceChallenge(forVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test("base64url round trip without padding")
    func base64URL() throws {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF, 0x00, 0x01]
        #expect(Base64URL.encode(bytes) == "-_-_AAE")
        #expect(try Base64URL.decode("-_-_AAE") == bytes)
        #expect(throws: (any Error).self) { try Base64URL.decode("not base64url!") }
    }
}
