import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// From the first security review: integers from outside never trap, and registered values match
/// byte for byte.
@Suite("Integer edges and byte-exact matching")
struct InputBoundsTests {
    static let now = Secrets.nowSeconds

    /// `iat` / `exp` pairs whose differences overflow a 64-bit Int if computed unchecked.
    static let edgeTimes: [(iat: Int, exp: Int)] = [
        (Int.min, now + 300), (now, Int.min), (Int.min, Int.max), (Int.max, Int.max), (now - 10, Int.max), (-1, now + 300),
    ]

    @Test("a client secret with int64-edge iat/exp is invalid_client, never a trap", arguments: edgeTimes)
    func edgeTimesRefused(_ times: (iat: Int, exp: Int)) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let claims = ClientSecretClaims(
                issuer: TestServer.teamID.rawValue, issuedAt: times.iat, expiresAt: times.exp, audience: TestServer.issuer,
                subject: TestServer.servicesID.rawValue)
            let secret = try await Secrets.es256(claims)
            let response = try await RP.redeem(client, code: "c_unknown", secret: secret)
            #expect(response.status == .badRequest)
            #expect(response.text == #"{"error":"invalid_client"}"#, "Apple's bare answer")
        }
    }

    @Test("an id_token lifetime quirk past Int's range is refused, and tokens still issue")
    func lifetimeQuirkBounded() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            for lifetime in [Int.max, Int.max / 2, 0, -5] {
                let response = try await client.execute(
                    uri: "/admin/clients/com.example.juice.web/quirks", method: .put, headers: RP.adminHeaders,
                    body: ByteBuffer(string: #"{"id_token_lifetime":\#(lifetime)}"#))
                #expect(response.status == .badRequest, "lifetime \(lifetime)")
            }
            let code = try await RP.code(client)
            #expect(try await RP.redeem(client, code: code, secret: try await server.clientSecret()).status == .ok)
        }
    }

    @Test("a clock advance past any real date, either way, is refused, and the server keeps answering")
    func clockAdvanceBounded() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            for seconds in ["1e300", "9223372036854775807", "-1e300", "-9223372036854775807", "0"] {
                let response = try await client.execute(
                    uri: "/admin/clock/advance", method: .post, headers: RP.adminHeaders, body: ByteBuffer(string: #"{"seconds":\#(seconds)}"#))
                #expect(response.status == .badRequest, "seconds \(seconds)")
            }
            let code = try await RP.code(client)
            #expect(try await RP.redeem(client, code: code, secret: try await server.clientSecret()).status == .ok)
        }
    }

    @Test("a redirect_uri with U+212A KELVIN SIGN is not the registered one with K")
    func kelvinRedirectURI() async throws {
        let server = try await TestServer.make()
        var client = try #require(try await server.provider.registeredClient(TestServer.servicesID))
        client.returnURLs.append("https://juice.example.com/Kiosk")
        try await server.arrange.plant(client)
        server.provider.registryDidChange()
        try await server.app.test(.router) { client in
            func authorize(_ redirectURI: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/auth/authorize?"
                        + Form.encode([
                            ("client_id", TestServer.servicesID.rawValue), ("redirect_uri", redirectURI), ("response_type", "code"),
                            ("state", "s"),
                        ]), method: .get)
            }
            #expect("https://juice.example.com/\u{212A}iosk" == "https://juice.example.com/Kiosk", "Swift's String == says equal")
            let kelvin = try await authorize("https://juice.example.com/\u{212A}iosk")
            #expect(kelvin.status == .badRequest)
            #expect(kelvin.headers[.location] == nil, "an unregistered redirect_uri is never redirected to")
            #expect(try await authorize("https://juice.example.com/Kiosk").status == .ok)
        }
    }

    @Test("identifiers compare and hash by their UTF-8 bytes")
    func identifiersAreByteExact() {
        let kelvin = ClientID(rawValue: "com.example.\u{212A}")
        let letter = ClientID(rawValue: "com.example.K")
        #expect(kelvin != letter)
        #expect(Set([letter]).contains(kelvin) == false)
        #expect(["https://a.example/\u{212A}"].containsExactly("https://a.example/K") == false)
        #expect(WireMatch.exact("é", "e\u{301}") == false)
        #expect(WireMatch.exact(nil, nil) && !WireMatch.exact("", nil))
    }
}
