import Foundation
import Testing

/// The admin verbs run as the built binary against a `siwa serve` of their own: what they print,
/// and that a refusal is one line, `Error: <the server's reason>`, on stderr with exit 1.
@Suite("siwa admin verbs against a running server", .timeLimit(.minutes(5)))
struct AdminVerbTests {
    @Test("teams list prints each team's ID and name, one per line; --json prints the same as JSON")
    func teamsList() async throws {
        let server = try await SiwaServer()
        let added = try await server.run(["teams", "add", "--team-id", "ACME000001", "--name", "Acme Corp"])
        #expect(added.status == 0, "\(added.standardError)")

        let listed = try await server.run(["teams", "list"])
        #expect(listed.status == 0, "\(listed.standardError)")
        let lines = listed.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("ACME000001 Acme Corp"), "\(listed.standardOutput)")
        #expect(lines.count >= 2, "the demo team is listed too: \(lines)")

        let json = try await server.run(["teams", "list", "--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let teams = try #require(object?["teams"] as? [[String: Any]], "\(json.standardOutput)")
        #expect(teams.contains { $0["team_id"] as? String == "ACME000001" && $0["name"] as? String == "Acme Corp" })
    }

    @Test("a team made with teams add gets a key once apps add registers its App ID with Sign in with Apple")
    func teamKeyAfterAppsAdd() async throws {
        let server = try await SiwaServer()
        #expect(try await server.run(["teams", "add", "--team-id", "ACME000002", "--name", "Acme"]).status == 0)
        let keyFile = server.directory.appendingPathComponent("AuthKey_acme.p8").path
        let key = ["teams", "key", "ACME000002", "--primary-app-id", "com.acme.app", "--out", keyFile]

        let refused = try await server.run(key)
        #expect(refused.status == 1)
        #expect(refused.standardError.hasPrefix("Error: no app group com.acme.app"), "\(refused.standardError)")
        #expect(!refused.standardError.contains("{\""), "the reason, not the raw JSON: \(refused.standardError)")

        let app = try await server.run(["apps", "add", "--team", "ACME000002", "--bundle-id", "com.acme.app", "--description", "Acme"])
        #expect(app.status == 0, "\(app.standardError)")
        #expect(app.standardOutput.contains("\"client_id\" : \"com.acme.app\""), "\(app.standardOutput)")

        let made = try await server.run(key)
        #expect(made.status == 0, "\(made.standardError)")
        #expect(FileManager.default.fileExists(atPath: keyFile))

        let again = try await server.run(["apps", "add", "--team", "ACME000002", "--bundle-id", "com.acme.app", "--description", "Acme"])
        #expect(again.status == 1)
        #expect(again.standardError.hasPrefix("Error: "), "\(again.standardError)")
    }

    @Test("orgs federation sets and clears where an organization's passwords are checked; http to another host is refused")
    func orgsFederation() async throws {
        let server = try await SiwaServer()
        let added = try await server.run(["orgs", "add", "Cupertino High"])
        #expect(added.status == 0, "\(added.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(added.standardOutput.utf8)) as? [String: Any]
        let org = try #require(object?["id"] as? String, "\(added.standardOutput)")

        let set = try await server.run(["orgs", "federation", org, "https://idp.cupertino.example.edu/check"])
        #expect(set.status == 0, "\(set.standardError)")
        let shown = try JSONSerialization.jsonObject(with: Data(set.standardOutput.utf8)) as? [String: Any]
        #expect(shown?["federation_url"] as? String == "https://idp.cupertino.example.edu/check", "\(set.standardOutput)")
        let clearText = try await server.run(["orgs", "federation", org, "http://idp.cupertino.example.edu/check"])
        #expect(clearText.status == 1)
        #expect(clearText.standardError.hasPrefix("Error: a federation URL is https"), "\(clearText.standardError)")
        let off = try await server.run(["orgs", "federation", org, "--off"])
        #expect(off.status == 0, "\(off.standardError)")
        #expect(!off.standardOutput.contains("federation_url"), "\(off.standardOutput)")
        #expect(try await server.run(["orgs", "federation", org]).status != 0, "neither a URL nor --off")
    }

    @Test("clock advance takes a negative duration (-10s) as the duration, not as an option")
    func clockBack() async throws {
        let server = try await SiwaServer()
        let back = try await server.run(["clock", "advance", "-10s"])
        #expect(back.status == 0, "\(back.standardError)")
        #expect(back.standardOutput.contains("\"offset_seconds\" : -10"), "\(back.standardOutput)")
        let forward = try await server.run(["clock", "advance", "1m"])
        #expect(forward.standardOutput.contains("\"offset_seconds\" : 50"), "\(forward.standardOutput)")
        let zero = try await server.run(["clock", "advance", "0s"])
        #expect(zero.status != 0)
    }

    @Test("a wrong admin token is refused with a line that says which token and where it comes from")
    func wrongToken() async throws {
        let server = try await SiwaServer()
        let run = try await SiwaFixtures.run(["users", "list", "--server", "http://127.0.0.1:\(server.port)", "--admin-token", "wrong"])
        #expect(run.status == 1)
        #expect(run.standardError.hasPrefix("Error: "), "\(run.standardError)")
        #expect(run.standardError.contains("--admin-token"), "\(run.standardError)")
    }
}
