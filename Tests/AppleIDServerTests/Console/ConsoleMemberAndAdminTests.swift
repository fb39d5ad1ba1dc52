import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import NIOCore
import Testing

@Suite("Console Team page and the admin API of console-only actions")
struct ConsoleMemberAndAdminTests {
    @Test("a developer adds another by e-mail on the Team page; the form needs its CSRF token")
    func teamPage() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let page = try await browser.get("/console/members")
            #expect(page.text.contains("<code>\(ConsolePages.email)</code>"))
            let added = try await browser.post(
                "/console/members",
                form: [("csrf", csrf), ("email", "Colleague@Example.com"), ("name", "Colleague"), ("password", "initial secret 42")])
            #expect(added.status == .ok)
            #expect(added.text.contains("colleague@example.com is now a member of this team."))
            #expect(!added.text.contains("initial secret 42"))
            #expect(try await server.provider.members(of: TestServer.teamID).map(\.email) == ["colleague@example.com", ConsolePages.email])
            let again = try await browser.post("/console/members", form: [("csrf", csrf), ("email", "colleague@example.com")])
            #expect(again.status == .badRequest)
            #expect(again.text.contains("colleague@example.com is already a member of \(TestServer.teamID)."))
            let forged = try await browser.post(
                "/console/members", form: [("csrf", "wrong"), ("email", "x@example.com"), ("password", "x password")])
            #expect(forged.status == .forbidden)
            #expect(try await server.provider.store.developer(email: "x@example.com") == nil)
        }
    }

    @Test("admin: create a developer, add one to a team, send a test notification, add and check e-mail sources")
    func adminOperations() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            func post(_ path: String, _ json: String = "{}") async throws -> TestResponse {
                var headers = RP.adminHeaders
                headers[.contentType] = "application/json"
                return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: json))
            }
            let created = try await post(
                "/admin/developers", #"{"email":"dev@example.com","name":"Dev","password":"long enough","team_ids":["\#(TestServer.teamID)"]}"#)
            #expect(created.status == .ok)
            #expect(String(buffer: created.body).contains(#""team_ids":["TEAM123456"]"#))
            #expect(!String(buffer: created.body).contains("$2"), "never the password hash")
            let joined = try await post("/admin/teams/\(TestServer.otherTeamID.rawValue)/developers", #"{"email":"dev@example.com"}"#)
            #expect(String(buffer: joined.body).contains(#""team_ids":["TEAM123456","OTHER12345"]"#))
            let noEndpoint = try await post("/admin/app-groups/\(TestServer.bundleID.rawValue)/test-notification")
            #expect(noEndpoint.status == .badRequest)
            _ = try await server.provider.setNotificationEndpoint("https://juice.example.com/apple", groupID: TestServer.bundleID, teamID: nil)
            let sent = try await post("/admin/app-groups/\(TestServer.bundleID.rawValue)/test-notification")
            #expect(sent.status == .ok)
            #expect(String(buffer: sent.body).contains(#""type":"test""#))
            let sources = try await post("/admin/teams/\(TestServer.teamID.rawValue)/email-sources", #"{"sources":"mail.example.com"}"#)
            #expect(String(buffer: sources.body).contains(#""check":"not-checked""#))
            let checked = try await post("/admin/teams/\(TestServer.teamID.rawValue)/email-sources/check")
            #expect(String(buffer: checked.body).contains(#""check":"lookup-failed""#))
            #expect(try await client.execute(uri: "/admin/developers", method: .post).status == .unauthorized)
        }
    }

    @Test("admin: Send test notification is rate-limited like the console's button, with the same message")
    func adminTestNotificationLimit() async throws {
        let server = try await TestServer.make()
        _ = try await server.provider.setNotificationEndpoint("https://juice.example.com/apple", groupID: TestServer.bundleID, teamID: nil)
        try await server.app.test(.router) { client in
            let path = "/admin/app-groups/\(TestServer.bundleID.rawValue)/test-notification"
            for _ in 0..<5 { #expect(try await client.execute(uri: path, method: .post, headers: RP.adminHeaders).status == .ok) }
            let limited = try await client.execute(uri: path, method: .post, headers: RP.adminHeaders)
            #expect(limited.status == .badRequest)
            #expect(String(buffer: limited.body).contains("at most 5 test notifications a minute"))
        }
    }
}
