import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `siwa serve --apple-as-of` and the `apple_as_of` quirk: each dated change of the timeline, before
/// and after its day; a client's day wins over the server's, a switch set wins over both.
@Suite("Apple as of a date: the server speaks as Apple did on that day")
struct AppleAsOfTests {
    static let admin = NativeCredentialTests.admin

    static func server(asOf day: String?, issuer: String? = nil) async throws -> TestServer {
        try await TestServer.make { configuration in
            configuration.appleAsOf = day.flatMap(AppleDate.init)
            if let issuer { configuration.issuer = issuer }
        }
    }

    /// The payload of a fresh id_token for Maria, with a relay address when `hidden`.
    static func tokenPayload(_ client: any TestClientProtocol, hidden: Bool = true) async throws -> String {
        let order = RP.Order(responseType: "code id_token", responseMode: "form_post", scope: "email", hideEmail: hidden)
        return try RP.segment(try #require(try await RP.authorize(client, order)["id_token"]), 1)
    }

    static func setQuirks(_ client: any TestClientProtocol, _ body: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/admin/clients/com.example.juice.web/quirks", method: .put, headers: admin, body: ByteBuffer(string: body))
    }

    @Test(
        "email_verified and is_private_email are strings before 2024-02-07, JSON booleans since and without a day",
        arguments: [("2024-01-01", true), ("2024-02-06", true), ("2024-02-07", false), ("2026-11-29", false), (nil, false)] as [(String?, Bool)])
    func booleanClaims(day: String?, strings: Bool) async throws {
        let server = try await Self.server(asOf: day)
        try await server.app.test(.router) { client in
            let payload = try await Self.tokenPayload(client)
            let expected = strings ? #""email_verified":"true","is_private_email":"true""# : #""email_verified":true,"is_private_email":true"#
            #expect(payload.contains(expected), "\(payload)")
        }
    }

    @Test(
        "speaking as Apple, the discovery issuer is the tokens' iss before 2025-06-11 and https://account.apple.com since",
        arguments: [("2025-06-10", "https://appleid.apple.com"), ("2025-06-11", "https://account.apple.com"), (nil, "https://appleid.apple.com")]
            as [(String?, String)])
    func discoveryIssuer(day: String?, expected: String) async throws {
        let server = try await Self.server(asOf: day, issuer: ProviderConfiguration.appleIssuer)
        try await server.app.test(.router) { client in
            let response = try await client.execute(uri: "/.well-known/openid-configuration", method: .get)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(document["issuer"] as? String == expected)
            let payload = try await Self.tokenPayload(client)
            #expect(payload.contains(#""iss":"https://appleid.apple.com""#))
        }
    }

    @Test("a server under its own URL keeps naming it in discovery on either side of 2025-06-11", arguments: ["2025-06-10", "2025-06-11"])
    func discoveryIssuerOwnURL(day: String) async throws {
        let server = try await Self.server(asOf: day)
        try await server.app.test(.router) { client in
            let response = try await client.execute(uri: "/.well-known/openid-configuration", method: .get)
            #expect(response.text.contains(#""issuer":"\#(TestServer.issuer)""#))
        }
    }

    @Test("new relay addresses stay under privaterelay.appleid.com before and after 2026-06-16", arguments: ["2026-06-15", "2026-06-16", nil])
    func relayDomain(day: String?) async throws {
        let server = try await Self.server(asOf: day)
        try await server.app.test(.router) { client in
            let payload = try await Self.tokenPayload(client)
            #expect(payload.contains(#"@privaterelay.appleid.com""#))
        }
    }

    @Test("a client's apple_as_of wins over the server's day, in both directions")
    func clientDayWins() async throws {
        let early = try await Self.server(asOf: "2024-01-01")
        try await early.app.test(.router) { client in
            let set = try await Self.setQuirks(client, #"{"apple_as_of":"2025-01-01"}"#)
            #expect(set.status == .noContent)
            let payload = try await Self.tokenPayload(client)
            #expect(payload.contains(#""email_verified":true"#))
        }
        let today = try await Self.server(asOf: nil)
        try await today.app.test(.router) { client in
            let set = try await Self.setQuirks(client, #"{"apple_as_of":"2024-01-01"}"#)
            #expect(set.status == .noContent)
            let payload = try await Self.tokenPayload(client)
            #expect(payload.contains(#""email_verified":"true""#))
            let view = try await client.execute(uri: "/admin/clients/com.example.juice.web", method: .get, headers: Self.admin)
            #expect(view.text.contains(#""apple_as_of":"2024-01-01""#))

            // An empty day clears the client's: today's traffic again, and the view names no day.
            let cleared = try await Self.setQuirks(client, #"{"apple_as_of":""}"#)
            #expect(cleared.status == .noContent)
            #expect(try await Self.tokenPayload(client).contains(#""email_verified":true"#))
            let after = try await client.execute(uri: "/admin/clients/com.example.juice.web", method: .get, headers: Self.admin)
            #expect(!after.text.contains("apple_as_of"))
        }
    }

    @Test("a switch set wins over the client's and the server's day")
    func switchWins() async throws {
        let server = try await Self.server(asOf: "2024-01-01")
        try await server.app.test(.router) { client in
            let switchedOff = try await Self.setQuirks(client, #"{"booleans_as_strings":false}"#)
            #expect(switchedOff.status == .noContent)
            let booleans = try await Self.tokenPayload(client)
            #expect(booleans.contains(#""email_verified":true"#))
            let switched = try await Self.setQuirks(client, #"{"booleans_as_strings":true,"apple_as_of":"2025-01-01"}"#)
            #expect(switched.status == .noContent)
            let strings = try await Self.tokenPayload(client)
            #expect(strings.contains(#""email_verified":"true""#))
        }
    }

    @Test(
        "a day that is not YYYY-MM-DD is refused with the documented error shape", arguments: ["2024-13-01", "2024-02-30", "yesterday", "2024-1-1"])
    func badDay(text: String) async throws {
        let server = try await Self.server(asOf: nil)
        try await server.app.test(.router) { client in
            let refused = try await Self.setQuirks(client, #"{"apple_as_of":"\#(text)"}"#)
            #expect(refused.status == .badRequest)
            #expect(
                try refused.jsonStrings() == [
                    "error": "invalid_request", "error_description": "apple_as_of is a date YYYY-MM-DD, such as 2024-01-01",
                ])
        }
    }
}
