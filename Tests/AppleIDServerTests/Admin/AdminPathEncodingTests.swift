import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// Issue 14: the admin API decodes every path parameter once.
@Suite("Admin API: percent-encoded path parameters")
struct AdminPathEncodingTests {
    @Test("an Apple ID with an encoded @ and + is found; a client ID with an encoded / is one segment; bad encoding is a 400")
    func encodedSegments() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let created = try await client.execute(
                uri: "/admin/users", method: .post, headers: RP.adminHeaders,
                body: ByteBuffer(string: #"{"apple_id":"sam+tag@example.com","password":"pw","first_name":"Sam","last_name":"Lee"}"#))
            #expect(created.status == .ok)
            let changed = try await client.execute(
                uri: "/admin/users/sam%2Btag%40example.com", method: .patch, headers: RP.adminHeaders,
                body: ByteBuffer(string: #"{"first_name":"Samuel"}"#))
            #expect(changed.status == .ok)
            #expect(try await server.provider.lookUpAccount(appleID: "sam+tag@example.com")?.firstName == "Samuel")
            let literal = try await client.execute(
                uri: "/admin/users/sam+tag@example.com", method: .patch, headers: RP.adminHeaders, body: ByteBuffer(string: "{}"))
            #expect(literal.status == .ok, "a literal + is a plus, not a space")

            let stopped = try await client.execute(
                uri: "/admin/users/maria%40example.com/stop-using", method: .post, headers: RP.adminHeaders,
                body: ByteBuffer(string: #"{"group_id":"com.example.juice"}"#))
            #expect(stopped.status != .notFound, "maria%40example.com is maria@example.com")

            var slashed = RegisteredClient(id: "com.example/slash", kind: .service, teamID: TestServer.teamID, groupID: TestServer.bundleID)
            slashed.returnURLs = []
            try await server.arrange.plant(slashed)
            let shown = try await client.execute(uri: "/admin/clients/com.example%2Fslash", method: .get, headers: RP.adminHeaders)
            #expect(shown.status == .ok)
            #expect(shown.text.contains("com.example/slash"))

            let malformed = try await client.execute(
                uri: "/admin/users/sam%ZZ", method: .patch, headers: RP.adminHeaders, body: ByteBuffer(string: "{}"))
            #expect(malformed.status == .badRequest)
        }
    }
}

/// Issue 14: the clock trap. A shifted clock is shown, and can be set and reset.
@Suite("Admin API: the clock can be shown, set and reset; the playground says when it is shifted")
struct ClockTests {
    @Test("advance, show, set, reset; the playground warns while the clock is shifted")
    func clockLifecycle() async throws {
        let server = try await TestServer.make(playground: true)
        try await server.app.test(.router) { client in
            func clock() async throws -> [String: Any] {
                let response = try await client.execute(uri: "/admin/clock", method: .get, headers: RP.adminHeaders)
                return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            }
            #expect(try await clock()["shifted"] as? Bool == false)
            #expect(HTML.element(id: "clock-notice", in: try await client.execute(uri: "/playground", method: .get).text) == nil)

            _ = try await client.execute(
                uri: "/admin/clock/advance", method: .post, headers: RP.adminHeaders, body: ByteBuffer(string: #"{"seconds":301}"#))
            #expect(try await clock()["offset_seconds"] as? Int == 301)
            let notice = HTML.element(id: "clock-notice", in: try await client.execute(uri: "/playground", method: .get).text)
            #expect(notice?.contains("shifted by +301 s") == true)
            #expect(notice?.contains("siwa clock reset") == true)

            let set = try await client.execute(
                uri: "/admin/clock/set", method: .post, headers: RP.adminHeaders, body: ByteBuffer(string: #"{"time":"2027-01-01T00:00:00Z"}"#))
            #expect(set.status == .ok)
            #expect(server.clock.now() == ISO8601DateFormatter().date(from: "2027-01-01T00:00:00Z"))
            let wrong = try await client.execute(
                uri: "/admin/clock/set", method: .post, headers: RP.adminHeaders, body: ByteBuffer(string: #"{"time":"tomorrow"}"#))
            #expect(wrong.status == .badRequest)

            _ = try await client.execute(uri: "/admin/clock/reset", method: .post, headers: RP.adminHeaders)
            #expect(try await clock()["shifted"] as? Bool == false)
            #expect(server.clock.now() == Fixtures.now)
        }
    }
}
