import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import NIOCore
import Testing

@Suite("Console Team page and the admin API: where a team is based")
struct ConsoleTeamCountryTests {
    @Test("the Team page saves the country upper-case, shows it, and refuses what is not two letters with the reason, as typed")
    func teamPage() async throws {
        try await ConsolePages.signedIn { server, browser, csrf in
            let page = try await browser.get("/console/members")
            #expect(page.text.contains("id=\"team-country\""))
            let saved = try await browser.post("/console/members/country", form: [("csrf", csrf), ("value", "kr")])
            #expect(saved.status == .ok)
            #expect(
                saved.text.contains("The team&#39;s country or region was saved.") || saved.text.contains("The team's country or region was saved."))
            #expect(saved.text.contains("value=\"KR\""))
            #expect(try await server.provider.teams().first { $0.id == TestServer.teamID }?.country == "KR")

            let refused = try await browser.post("/console/members/country", form: [("csrf", csrf), ("value", "Korea")])
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("The country Korea is not valid. Enter its two-letter ISO 3166-1 code, such as KR."))
            #expect(refused.text.contains("value=\"Korea\""))
            #expect(try await server.provider.teams().first { $0.id == TestServer.teamID }?.country == "KR")

            let forged = try await browser.post("/console/members/country", form: [("csrf", "wrong"), ("value", "US")])
            #expect(forged.status == .forbidden)
        }
    }

    @Test("PUT /admin/teams/{team}/country sets and clears it; GET /admin/teams lists it; a bad code is 400")
    func adminAPI() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let headers = NativeCredentialTests.admin
            let path = "/admin/teams/\(TestServer.teamID.rawValue)/country"
            let set = try await client.execute(uri: path, method: .put, headers: headers, body: ByteBuffer(string: #"{"country":"kr"}"#))
            #expect(set.status == .ok)
            #expect(try AdminAccountTests.json(set)["country"] as? String == "KR")
            let listed = try await client.execute(uri: "/admin/teams", method: .get, headers: headers)
            let teams = try #require(try AdminAccountTests.json(listed)["teams"] as? [[String: Any]])
            #expect(teams.first { $0["team_id"] as? String == TestServer.teamID.rawValue }?["country"] as? String == "KR")
            let bad = try await client.execute(uri: path, method: .put, headers: headers, body: ByteBuffer(string: #"{"country":"KOR"}"#))
            #expect(bad.status == .badRequest)
            let cleared = try await client.execute(uri: path, method: .put, headers: headers, body: ByteBuffer(string: #"{"country":null}"#))
            #expect(cleared.status == .ok)
            #expect(try AdminAccountTests.json(cleared)["country"] == nil)
            let unknown = try await client.execute(
                uri: "/admin/teams/NOSUCHTEAM/country", method: .put, headers: headers, body: ByteBuffer(string: #"{"country":"KR"}"#))
            #expect(unknown.status == .notFound)
        }
    }
}
