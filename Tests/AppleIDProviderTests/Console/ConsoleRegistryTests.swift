import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Testing

@Suite("Console identifiers: App IDs, Services IDs, limits by team type")
struct ConsoleRegistryTests {
    static let individual: TeamID = "INDIVIDUAL"
    static let organization: TeamID = "ORGANIZATN"

    static func make(developmentMode: Bool = false) async throws -> AppleIDProvider {
        let harness = try await ProviderHarness.make { $0.developmentMode = developmentMode }
        try await harness.store.save(DeveloperTeam(id: individual, name: "Ind", kind: .individual))
        try await harness.store.save(DeveloperTeam(id: organization, name: "Org", kind: .organization))
        for team in [individual, organization] {
            _ = try await harness.provider.createAppID(teamID: team, bundleID: "com.\(team.rawValue.lowercased()).app", description: "App")
        }
        return harness.provider
    }

    static func urls(_ count: Int) -> [String] { (0..<count).map { "https://shop.example.com/callback/\($0)" } }

    @Test(
        "an individual registers up to 10 Return URLs, an organization up to 100",
        arguments: [(ConsoleRegistryTests.individual, 10), (ConsoleRegistryTests.organization, 100)])
    func returnURLLimit(team: TeamID, limit: Int) async throws {
        let provider = try await Self.make()
        let primary = ClientID(rawValue: "com.\(team.rawValue.lowercased()).app")
        let client = try await provider.createServicesID(
            teamID: team, identifier: "\(primary).web", description: "Web", primaryAppID: primary, returnURLs: Self.urls(limit))
        #expect(client.returnURLs.count == limit)
        await #expect(
            throws: ConsoleError.refused(
                "You can register up to \(limit) Return URLs as an \(team == Self.individual ? "individual" : "organization"); you entered \(limit + 1)."
            )
        ) {
            _ = try await provider.configureWebsite(
                servicesID: client.id, teamID: team, primaryAppID: primary, domains: [], returnURLs: Self.urls(limit + 1))
        }
        await #expect(throws: ConsoleError.self) { _ = try await provider.addReturnURL("https://shop.example.com/one-more", servicesID: client.id) }
        #expect(try await provider.registeredClient(client.id)?.returnURLs.count == limit)
    }

    @Test(
        "an individual registers up to 32 e-mail sources, an organization up to 100",
        arguments: [(ConsoleRegistryTests.individual, 32), (ConsoleRegistryTests.organization, 100)])
    func emailSourceLimit(team: TeamID, limit: Int) async throws {
        let provider = try await Self.make()
        let sources = (0..<limit).map { "mail\($0).example.com" }.joined(separator: ", ")
        #expect(try await provider.addEmailSources(sources, teamID: team).count == limit)
        await #expect(throws: ConsoleError.self) { _ = try await provider.addEmailSources("news@example.org", teamID: team) }
        #expect(try await provider.emailSources(teamID: team).count == limit)
        // Adding one already there is not one more.
        #expect(try await provider.addEmailSources("MAIL0.example.com", teamID: team).count == limit)
    }

    @Test("e-mail sources are domains or addresses; a bad entry refuses the whole list")
    func emailSourceShapes() async throws {
        let provider = try await Self.make()
        let added = try await provider.addEmailSources(" News@Example.com , mail.example.com", teamID: Self.organization)
        #expect(added.map(\.value) == ["news@example.com", "mail.example.com"])
        #expect(added.map(\.isAddress) == [true, false])
        await #expect(throws: ConsoleError.self) { _ = try await provider.addEmailSources("ok.example.com, not a domain", teamID: Self.organization) }
        #expect(try await provider.emailSources(teamID: Self.organization).count == 2)
    }

    @Test("a grouped App ID joins its primary's group; only a primary App ID of the team can group or own a Services ID")
    func primaryAndGrouped() async throws {
        let provider = try await Self.make()
        let primary: ClientID = "com.organizatn.app"
        let grouped = try await provider.createAppID(
            teamID: Self.organization, bundleID: "com.organizatn.watch", description: "Watch", groupedWith: primary)
        #expect(grouped.groupID == primary)
        #expect(try await provider.registeredAppGroup(grouped.id) == nil)
        await #expect(throws: ConsoleError.notFound("com.organizatn.watch is not a primary App ID of this team.")) {
            _ = try await provider.createServicesID(teamID: Self.organization, identifier: "com.x.web", description: "W", primaryAppID: grouped.id)
        }
        await #expect(throws: ConsoleError.self) {
            _ = try await provider.createAppID(teamID: Self.individual, bundleID: "com.ind.other", description: "O", groupedWith: primary)
        }
        await #expect(throws: ConsoleError.self) {
            _ = try await provider.createAppID(teamID: Self.organization, bundleID: "com.organizatn.app", description: "Again")
        }
        await #expect(throws: ConsoleError.self) {
            _ = try await provider.createAppID(teamID: Self.organization, bundleID: "no spaces", description: "X")
        }
    }

    @Test("development-only Return URLs need development mode")
    func developmentURLs() async throws {
        let strict = try await Self.make()
        await #expect(throws: ConsoleError.self) {
            _ = try await strict.createServicesID(
                teamID: Self.organization, identifier: "com.organizatn.web", description: "W", primaryAppID: "com.organizatn.app",
                returnURLs: ["http://127.0.0.1:9000/cb"])
        }
        let development = try await Self.make(developmentMode: true)
        let client = try await development.createServicesID(
            teamID: Self.organization, identifier: "com.organizatn.web", description: "W", primaryAppID: "com.organizatn.app",
            domains: ["shop.example.com"], returnURLs: ["http://127.0.0.1:9000/cb"])
        #expect(client.returnURLs == ["http://127.0.0.1:9000/cb"])
        #expect(client.domains == ["shop.example.com"])
    }

    @Test("disassociating removes the Services ID's Return URLs and domains from the group, and it no longer signs anyone in")
    func disassociate() async throws {
        let provider = try await Self.make()
        let client = try await provider.createServicesID(
            teamID: Self.organization, identifier: "com.organizatn.web", description: "W", primaryAppID: "com.organizatn.app",
            domains: ["shop.example.com"], returnURLs: ["https://shop.example.com/cb"])
        await #expect(throws: ConsoleError.self) { _ = try await provider.disassociate(servicesID: client.id, teamID: Self.individual) }
        let alone = try await provider.disassociate(servicesID: client.id, teamID: Self.organization)
        #expect(!alone.isAssociated)
        #expect(alone.returnURLs.isEmpty && alone.domains.isEmpty)
        #expect(try await provider.store.clients(groupID: "com.organizatn.app").map(\.id) == ["com.organizatn.app"])
        let request = AuthorizationRequest(clientID: client.id.rawValue, redirectURI: "https://shop.example.com/cb", responseType: "code")
        guard case .rejected(let error) = try await provider.validate(request) else {
            Issue.record("a disassociated Services ID still authorizes")
            return
        }
        #expect(error.reason.contains("not a registered Return URL"))
    }
}
