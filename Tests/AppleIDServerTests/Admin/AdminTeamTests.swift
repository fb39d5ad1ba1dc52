import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The admin API for a team made from nothing: list the teams, register an App ID with Sign in with
/// Apple, then make its key (what `siwa teams add`, `siwa apps add` and `siwa teams key` call).
@Suite("Admin API: teams and their App IDs")
struct AdminTeamTests {
    static let admin = NativeCredentialTests.admin

    static func post(_ client: some TestClientProtocol, _ uri: String, _ body: String) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .post, headers: admin, body: ByteBuffer(string: body))
    }

    @Test("GET /admin/teams lists every team by Team ID, with its name and kind")
    func listTeams() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            #expect(try await Self.post(client, "/admin/teams", #"{"team_id":"ACME000001","name":"Acme","kind":"individual"}"#).status == .ok)
            let listed = try await client.execute(uri: "/admin/teams", method: .get, headers: Self.admin)
            #expect(listed.status == .ok)
            let body = String(buffer: listed.body)
            #expect(body.contains(#"{"kind":"individual","name":"Acme","team_id":"ACME000001"}"#), "\(body)")
        }
    }

    @Test("a new team's key needs an App ID with Sign in with Apple, which POST /admin/teams/{team}/apps registers")
    func appIDThenKey() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            #expect(try await Self.post(client, "/admin/teams", #"{"team_id":"ACME000002","name":"Acme"}"#).status == .ok)
            let key = #"{"primary_app_id":"com.acme.app"}"#
            #expect(try await Self.post(client, "/admin/teams/ACME000002/keys", key).status == .notFound)

            let app = try await Self.post(client, "/admin/teams/ACME000002/apps", #"{"bundle_id":"com.acme.app","description":"Acme"}"#)
            #expect(app.status == .ok, "\(String(buffer: app.body))")
            #expect(String(buffer: app.body).contains(#""client_id":"com.acme.app""#))
            #expect(try await Self.post(client, "/admin/teams/ACME000002/keys", key).status == .ok)

            let unknownTeam = try await Self.post(client, "/admin/teams/NOSUCHTEAM/apps", #"{"bundle_id":"com.acme.other"}"#)
            #expect(unknownTeam.status == .notFound)
            #expect(String(buffer: unknownTeam.body).contains("There is no team NOSUCHTEAM."))
        }
    }
}
