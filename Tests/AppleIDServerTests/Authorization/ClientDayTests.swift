import AppleIDProvider
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `siwa check`'s drift checks show one app a dated change through the client's own day: the discovery
/// document of 2025-06-11 through its own variant, `?client_id=` (which Apple answers with its one
/// document), and relay addresses under `private.icloud.com` since 2026-06-16. Every other client sees
/// what it did.
@Suite("A client's own day: its discovery document and its new relay addresses")
struct ClientDayTests {
    static let document = "/.well-known/openid-configuration"
    static let variant = document + "?client_id=com.example.juice.web"

    static func issuer(_ client: any TestClientProtocol, _ uri: String) async throws -> String? {
        let response = try await client.execute(uri: uri, method: .get)
        #expect(response.status == .ok)
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])["issuer"] as? String
    }

    @Test(
        "a client's day since 2025-06-11 names https://account.apple.com in its document alone; before it, the tokens' issuer",
        arguments: [("2025-06-11", ProviderConfiguration.appleAccountIssuer), ("2025-06-10", TestServer.issuer)])
    func clientDay(day: String, expected: String) async throws {
        let server = try await AppleAsOfTests.server(asOf: nil)
        try await server.app.test(.router) { client in
            let plain = try await Self.issuer(client, Self.variant)
            #expect(plain == TestServer.issuer)
            let set = try await AppleAsOfTests.setQuirks(client, #"{"apple_as_of":"\#(day)"}"#)
            #expect(set.status == .noContent)
            let dated = try await Self.issuer(client, Self.variant)
            #expect(dated == expected)
            // The server-wide document, an unknown client's and another client's stay as they were.
            let others = [
                try await Self.issuer(client, Self.document), try await Self.issuer(client, Self.document + "?client_id=com.example.unknown"),
                try await Self.issuer(client, Self.document + "?client_id=com.example.juice"),
            ]
            #expect(others == [TestServer.issuer, TestServer.issuer, TestServer.issuer])
            // The tokens keep their issuer.
            let payload = try await AppleAsOfTests.tokenPayload(client)
            #expect(payload.contains(#""iss":"\#(TestServer.issuer)""#))
            // Cleared, the client reads the server-wide document again.
            let cleared = try await AppleAsOfTests.setQuirks(client, #"{"apple_as_of":""}"#)
            #expect(cleared.status == .noContent)
            let again = try await Self.issuer(client, Self.variant)
            #expect(again == TestServer.issuer)
        }
    }

    @Test(
        "a client's own day since 2026-06-16 gives new relay addresses under private.icloud.com; before it, the relay domain",
        arguments: [("2026-06-16", "@private.icloud.com"), ("2026-06-15", "@privaterelay.appleid.com")])
    func relayDomain(day: String, domain: String) async throws {
        let server = try await AppleAsOfTests.server(asOf: nil)
        try await server.app.test(.router) { client in
            let set = try await AppleAsOfTests.setQuirks(client, #"{"apple_as_of":"\#(day)"}"#)
            #expect(set.status == .noContent)
            let payload = try await AppleAsOfTests.tokenPayload(client)
            #expect(payload.contains(domain + #"""#), "\(payload)")
        }
    }

    @Test("the client view shows a switch only when it is set: not set is absent, not false")
    func explicitSwitchesOnly() async throws {
        let server = try await AppleAsOfTests.server(asOf: nil)
        try await server.app.test(.router) { client in
            let uri = "/admin/clients/com.example.juice.web"
            let unset = try await client.execute(uri: uri, method: .get, headers: AppleAsOfTests.admin)
            #expect(!unset.text.contains("booleans_as_strings"))
            let switched = try await AppleAsOfTests.setQuirks(client, #"{"booleans_as_strings":false}"#)
            #expect(switched.status == .noContent)
            let set = try await client.execute(uri: uri, method: .get, headers: AppleAsOfTests.admin)
            #expect(set.text.contains(#""booleans_as_strings":false"#))
        }
    }
}
