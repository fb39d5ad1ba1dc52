import AppleIDProtocol
import Foundation
import Testing

@testable import SignInWithApple

@Suite("Fast claims reader agrees with JSONDecoder")
struct FlatJSONTests {
    static let base = #""iss":"https://appleid.apple.com","aud":"com.example","exp":1700000600,"iat":1700000000,"sub":"001.abc.002""#

    /// Inputs both readers must judge the same way: the same claims, or both refuse.
    static let agreeing: [String] = [
        "{\(base)}",
        " {\n\t\(base) \r\n} ",
        #"{\#(base),"email":"a\"b\\c\/d\n\u00e9\ud83d\ude00","email_verified":"true","is_private_email":false}"#,
        #"{\#(base),"nonce_supported":true,"real_user_status":2,"auth_time":1700000000,"transfer_sub":"x.y.z"}"#,
        #"{\#(base),"unknown":{"a":[1,2,{"b":null}],"c":"d"},"list":[],"obj":{}}"#,
        #"{\#(base),"nonce":null,"email":null}"#,
        // A Managed Apple ID's token (spec §21): no e-mail, the string "false", an organization.
        #"{\#(base),"email_verified":"false","org_id":"6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b"}"#,
        #"{\#(base),"org_id":7}"#,
        #"{\#(base),"email_verified":"yes"}"#,
        #"{\#(base),"email_verified":1}"#,
        #"{\#(base),"real_user_status":"2"}"#,
        #"{\#(base),"nonce_supported":"true"}"#,
        #"{"iss":"x","aud":["com.example"],"exp":1,"iat":1,"sub":"s"}"#,
        #"{"iss":"x","aud":"a","exp":"1","iat":1,"sub":"s"}"#,
        #"{"iss":"x","aud":"a","exp":null,"iat":1,"sub":"s"}"#,
        #"{"iss":"x","aud":"a","iat":1,"sub":"s"}"#,
        #"{"iss":"x","aud":"a","exp":1,"iat":1,"sub":"s"} x"#,
        #"{"iss":"x","aud":"a","exp":01,"iat":1,"sub":"s"}"#,
        #"{"iss":"x","aud":"a","exp":1,"iat":1,"sub":"\ud800"}"#,
        #"{"iss":"x","aud":"a","exp":1,"iat":1,"sub":"\u12"}"#,
        #"{"iss":"x","aud":"a","exp":1,"iat":1,"sub":"\x"}"#,
        #"{"iss":"x","aud":"a","exp":99999999999999999999,"iat":1,"sub":"s"}"#,
        "{\"iss\":\"x\",\"aud\":\"a\",\"exp\":1,\"iat\":1,\"sub\":\"tab\there\"}",
        #"["not","an","object"]"#,
        "",
        "{",
        #"{"iss":"x","aud":"a","exp":1,"iat":1,"sub":"s""#,
        #"{"iss":tru,"aud":"a","exp":1,"iat":1,"sub":"s"}"#,
        #"{"iss":"x","aud":"a","exp":-5,"iat":0,"sub":""}"#,
    ]

    @Test("same verdict and same claims as JSONDecoder", arguments: agreeing)
    func agrees(json: String) {
        let expected = try? JSONDecoder().decode(IdentityTokenClaims.self, from: Data(json.utf8))
        let actual = try? IdentityTokenClaims(flatJSON: Array(json.utf8))
        #expect(actual == expected)
    }

    @Test("every real Apple id_token reads the same way")
    func realTokens() throws {
        let root = VerifierSupport.vectorsRoot.appendingPathComponent("apple/id_tokens")
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".jwt") }
        #expect(files.count == 5)
        for file in files {
            let token = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let payload = try Base64URL.decode(String(token.split(separator: ".")[1]))
            #expect(try IdentityTokenClaims(flatJSON: payload) == JSONDecoder().decode(IdentityTokenClaims.self, from: Data(payload)))
        }
    }

    @Test("stricter than JSONDecoder on purpose: a repeated claim, a trailing comma, invalid UTF-8, deep nesting")
    func stricter() {
        let trailingComma = #"{"iss":"x","aud":"a","exp":1,"iat":1,"sub":"s",}"#
        #expect((try? JSONDecoder().decode(IdentityTokenClaims.self, from: Data(trailingComma.utf8))) != nil, "Foundation is lenient here")
        #expect(throws: FlatJSON.Malformed.self) { try IdentityTokenClaims(flatJSON: Array(trailingComma.utf8)) }
        #expect(throws: FlatJSON.Malformed.self) { try IdentityTokenClaims(flatJSON: Array(#"{\#(Self.base),"sub":"other"}"#.utf8)) }
        #expect(throws: FlatJSON.Malformed.self) {
            try IdentityTokenClaims(flatJSON: Array(#"{"iss":"x","aud":"a","exp":1,"iat":1,"sub":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))
        }
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: FlatJSON.Malformed.self) { try IdentityTokenClaims(flatJSON: Array(#"{\#(Self.base),"x":\#(deep)}"#.utf8)) }
    }
}
