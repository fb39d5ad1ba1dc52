import AppleIDProtocol
import Testing

@Suite("Flat form decoding")
struct FlatFormDecoderTests {
    @Test("pairs split on & and the first =, + is a space, %XX a byte, empty pairs skipped")
    func fields() throws {
        let fields = try FormFields.parse("a=1&&b=x%3Dy+z%26&c&d=&e=%E2%9C%93&f=a=b")
        #expect(fields == ["a": "1", "b": "x=y z&", "c": "", "d": "", "e": "✓", "f": "a=b"])
        #expect(try FormFields.parse("") == [:])
        #expect(try FormFields.parse("&") == [:])
        #expect(try FormFields.parse("n%61me=v") == ["name": "v"])
    }

    @Test("a repeated name is refused, also when it is spelled differently")
    func repeated() throws {
        #expect(throws: FormFieldsError.repeated("code")) { try FormFields.parse("code=1&code=2") }
        #expect(throws: FormFieldsError.repeated("code")) { try FormFields.parse("code=1&c%6Fde=1") }
        #expect(throws: FormFieldsError.repeated("")) { try FormFields.parse("=1&=2") }
        #expect(throws: FormFieldsError.repeated("code")) { try FormFields.parse("code=1&code%5B%5D=2") }
        #expect(throws: FormFieldsError.repeated("code")) { try FormFields.parse("code[a]=1&code[b]=2") }
        #expect(try FormFields.parse("code[]=1") == ["code[]": "1"])
        #expect(FormFieldsError.repeated("client_id").description == "parameter client_id is repeated")
        #expect(FormFieldsError.repeated("a\nb").description == "a parameter is repeated")
    }

    @Test("a % without two hex digits and bytes that are not UTF-8 are refused", arguments: ["a=%", "a=%4", "a=%zz", "%g1=b", "a=%4g"])
    func badPercent(form: String) {
        #expect(throws: FormFieldsError.badPercentEncoding) { try FormFields.parse(form) }
    }

    @Test("percent-decoded bytes must be UTF-8", arguments: ["a=%FF", "a=%C3", "a=%ED%A0%80", "%80=1"])
    func notUTF8(form: String) {
        #expect(throws: FormFieldsError.notUTF8) { try FormFields.parse(form) }
    }

    @Test("a request type decodes with its coding keys; absent fields are nil and unknown ones ignored")
    func tokenRequest() throws {
        let form = "grant_type=authorization_code&client_id=com.example.web&code=c.0.x&other=1&redirect_uri=https%3A%2F%2Fa.example%2Fcb"
        let request = try FlatFormDecoder().decode(TokenRequest.self, from: form)
        #expect(request.grantType == "authorization_code")
        #expect(request.clientID == "com.example.web")
        #expect(request.code == "c.0.x")
        #expect(request.redirectURI == "https://a.example/cb")
        #expect(request.clientSecret == nil)
        #expect(request.refreshToken == nil)
    }

    @Test("what FormURLEncoding writes decodes to the same values")
    func roundTrip() throws {
        let values = ["a b+c", "&=%", "ünïcødé ✓", "", "line\nbreak", "\u{0}"]
        for value in values {
            let form = FormURLEncoding.join([("client_id", value), ("code", "x")])
            let request = try FlatFormDecoder().decode(TokenRequest.self, from: form)
            #expect(request.clientID == value)
            #expect(request.code == "x")
        }
    }

    struct Typed: Decodable, Equatable {
        enum Mode: String, Decodable { case fast, slow }
        var count: Int
        var enabled: Bool?
        var mode: Mode?
        var list: [String]?
    }

    @Test("fields read from one string: numbers, booleans, string enums; a list has no flat form")
    func typedFields() throws {
        let decoder = FlatFormDecoder()
        #expect(try decoder.decode(Typed.self, from: "count=42&enabled=true&mode=slow") == Typed(count: 42, enabled: true, mode: .slow))
        #expect(throws: FormFieldsError.unreadable("count")) { try decoder.decode(Typed.self, from: "count=many") }
        #expect(throws: (any Error).self) { try decoder.decode(Typed.self, from: "count=1&mode=medium") }
        #expect(throws: FormFieldsError.unreadable("list")) { try decoder.decode(Typed.self, from: "count=1&list=a") }
        #expect(throws: (any Error).self) { try decoder.decode(Typed.self, from: "enabled=true") }
    }
}
