import AppleIDConsole
import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import EnvironmentFile
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServerTestSupport
import Testing

@testable import AppleIDServer
@testable import AppleIDServerApp

/// `siwa serve --config`: a CI run from one file gets the same identities every time.
@Suite("siwa serve --config: same file, same identities")
struct DeclaredStartTests {
    static let file = """
        seed: ci-run
        teams:
          - name: Juice Team
        app_ids:
          - bundle_id: com.example.juice
            description: Juice
        services_ids:
          - identifier: com.example.juice.web
            description: Juice on the web
            primary_app_id: com.example.juice
            return_urls: [https://juice.example.com/auth/apple/callback]
        keys:
          - name: Juice key
            primary_app_id: com.example.juice
            p8: \(Fixtures.directory.appendingPathComponent("other-team-key.p8").path)
        apple_ids:
          - apple_id: maria.ruiz@example.com
            first_name: Maria
            last_name: Ruiz
          - apple_id: robin.unknown@example.com
            first_name: Robin
            last_name: Unknown
            real_user_status: 1
        organizations:
          - name: Juice Demo School
            verified_domains: [school.example.edu]
            accounts:
              - username: s.student@appleid.school.example.edu
                first_name: Sam
                last_name: Student
        """

    /// Starts an engine on a fresh data directory from `file` and returns its demo.json and export.
    static func start(
        random: String, directory: URL, developmentMode: Bool = true
    ) async throws -> (demoJSON: DemoFacts, export: EnvironmentDeclaration) {
        let (_, shutdown, provider) = try await TestEngine.freshServer(in: directory, seed: random, developmentMode: developmentMode)
        do {
            let url = directory.appendingPathComponent("siwa.yaml")
            try Data(file.utf8).write(to: url)
            let declared = try EnvironmentFile.load(contentsOf: url, name: "siwa.yaml")
            let files = DemoFiles(directory: directory)
            let (facts, _) = try await DeclaredStart.prepare(
                file: declared, prune: false, provider: provider, settings: ServeSettings(), files: files, logger: Logger(label: "test"))
            try files.save(facts)
            let written = try #require(try files.loadFacts())
            var export = try await provider.exportDeclaration(withSecrets: true)
            export.seed = nil  // fresh random in each export
            try await shutdown()
            return (written, export)
        } catch {
            try? await shutdown()
            throw error
        }
    }

    @Test("two fresh data directories started from one file give the same demo.json (but the admin token) and the same subs")
    func sameFileSameIdentities() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-declared-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var one = try await Self.start(random: "one", directory: root.appendingPathComponent("a"))
        var two = try await Self.start(random: "two", directory: root.appendingPathComponent("b"))
        #expect(one.demoJSON.adminToken != two.demoJSON.adminToken, "the admin token stays random")
        one.demoJSON.adminToken = ""
        two.demoJSON.adminToken = ""
        #expect(try one.demoJSON.fileContents() == two.demoJSON.fileContents())
        #expect(one.export == two.export)
        #expect(one.export.appleIDs.map(\.sub) == two.export.appleIDs.map(\.sub))
        #expect(one.export.appleIDs.allSatisfy { $0.sub != nil })
        #expect(one.demoJSON.users.allSatisfy { !$0.password.isEmpty && $0.totpSecret != nil })
        let student = try #require(one.export.organizations.first?.accounts?.first)
        #expect(student.sub != nil && student.sub == two.export.organizations.first?.accounts?.first?.sub, "the Managed Apple ID's sub")
        #expect(one.demoJSON.organization?.id == one.export.organizations.first?.orgID)
        #expect(one.demoJSON.organization?.members.first.map { !$0.password.isEmpty } == true)
    }

    @Test("outside development mode, demo.json holds random passwords made at the first start, and the same ones after a restart")
    func randomPasswordsKept() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-declared-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("a")
        let first = try await Self.start(random: "one", directory: directory, developmentMode: false).demoJSON
        let derived = DeclaredIdentities(seed: "ci-run")
        #expect(first.users.count == 2)
        for user in first.users {
            #expect(user.password.count >= 16)
            #expect(user.password != derived.password(login: user.appleID), "not computable from the file")
        }
        let member = try #require(first.organization?.members.first)
        #expect(member.password.count >= 16 && member.password != derived.password(login: member.username))
        let restarted = try await Self.start(random: "two", directory: directory, developmentMode: false).demoJSON
        #expect(restarted.users.map(\.password) == first.users.map(\.password))
        #expect(restarted.organization?.members.map(\.password) == first.organization?.members.map(\.password))
    }

    @Test("GET /admin/config exports the setup; TOTP secrets only when asked")
    func adminExport() async throws {
        let server = try await TestServer.make()
        let school = try await server.provider.organizations.add(name: "Cupertino High", kind: .school)
        _ = try await server.provider.organizations.addAccount(
            to: school.id, username: "sam@appleid.cupertino.example.edu", password: "pw", firstName: "Sam", lastName: "Student")
        try await server.app.test(.router) { client in
            let plain = try await client.execute(uri: "/admin/config", method: .get, headers: NativeCredentialTests.admin)
            #expect(plain.status == .ok)
            let declaration = try JSONDecoder().decode(EnvironmentDeclaration.self, from: Data(buffer: plain.body))
            #expect(!declaration.appleIDs.isEmpty && declaration.appleIDs.allSatisfy { $0.totpSecret == nil && $0.password == nil })
            let managed = declaration.organizations.flatMap { $0.accounts ?? [] }
            #expect(!managed.isEmpty && managed.allSatisfy { $0.totpSecret == nil && $0.password == nil }, "the school's account")
            let secret = try await client.execute(uri: "/admin/config?secrets=true", method: .get, headers: NativeCredentialTests.admin)
            let withSecrets = try JSONDecoder().decode(EnvironmentDeclaration.self, from: Data(buffer: secret.body))
            #expect(withSecrets.appleIDs.allSatisfy { $0.totpSecret != nil })
            #expect(withSecrets.organizations.flatMap { $0.accounts ?? [] }.allSatisfy { $0.totpSecret != nil })
            #expect(try await client.execute(uri: "/admin/config", method: .get).status == .unauthorized)
        }
    }
}
