import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Testing

/// Apple, 9 October 2025: from 1 January 2026, developers based in the Republic of Korea provide a
/// server-to-server notification endpoint when they register or update a Services ID.
@Suite("Console: a team based in the Republic of Korea needs a notification endpoint for its Services IDs")
struct KoreaNotificationEndpointTests {
    static let korean: TeamID = "KOREANTEAM"
    static let primary: ClientID = "com.korean.app"

    static func make(appleAsOf: AppleDate? = nil, country: String? = "kr") async throws -> AppleIDProvider {
        let harness = try await ProviderHarness.make { $0.appleAsOf = appleAsOf }
        _ = try await harness.provider.registerTeam(id: korean, name: "Korean", country: country)
        _ = try await harness.provider.createAppID(teamID: korean, bundleID: primary.rawValue, description: "App")
        return harness.provider
    }

    static func register(_ provider: AppleIDProvider, _ identifier: String = "com.korean.web") async throws -> RegisteredClient {
        try await provider.createServicesID(
            teamID: korean, identifier: identifier, description: "Web", primaryAppID: primary, domains: ["korean.example"],
            returnURLs: ["https://korean.example/callback"])
    }

    static let refusal = ConsoleError.refused(
        "Developers based in the Republic of Korea must provide a server-to-server notification endpoint when registering a new Services ID, or updating an existing Services ID, to associate their website with an app using Sign in with Apple. Register one on the primary App ID com.korean.app first."
    )

    @Test("registering a Services ID is refused with Apple's reason until the primary App ID has an endpoint")
    func register() async throws {
        let provider = try await Self.make()
        #expect(try await provider.teams().first { $0.id == Self.korean }?.country == "KR")
        await #expect(throws: Self.refusal) { _ = try await Self.register(provider) }
        await #expect(throws: Self.refusal) {
            try await provider.checkNewIdentifier("com.korean.web", description: "Web", teamID: Self.korean)
            _ = try await provider.reviewServicesID(
                teamID: Self.korean, identifier: "com.korean.web", description: "Web", primaryAppID: Self.primary)
        }
        _ = try await provider.setNotificationEndpoint("https://korean.example/apple", groupID: Self.primary, teamID: Self.korean)
        #expect(try await Self.register(provider).isAssociated)
    }

    @Test("updating a Services ID (its website, a Return URL) is refused once the endpoint is gone")
    func update() async throws {
        let provider = try await Self.make(country: nil)
        let client = try await Self.register(provider)
        _ = try await provider.setTeamCountry("KR", teamID: Self.korean)
        await #expect(throws: Self.refusal) {
            _ = try await provider.configureWebsite(
                servicesID: client.id, teamID: Self.korean, primaryAppID: Self.primary, domains: [], returnURLs: ["https://korean.example/b"])
        }
        await #expect(throws: Self.refusal) { _ = try await provider.addReturnURL("https://korean.example/c", servicesID: client.id) }
        // Disassociating is no registration and no website: allowed.
        #expect(try await provider.disassociate(servicesID: client.id, teamID: Self.korean).isAssociated == false)
    }

    @Test("another country, no country, or Apple as of a day before 1 January 2026: no endpoint needed")
    func notInEffect() async throws {
        _ = try await Self.register(try await Self.make(country: "US"))
        _ = try await Self.register(try await Self.make(country: nil))
        _ = try await Self.register(try await Self.make(appleAsOf: try #require(AppleDate("2025-12-31"))))
        let newYear = try #require(AppleDate("2026-01-01"))
        await #expect(throws: Self.refusal) { _ = try await Self.register(try await Self.make(appleAsOf: newYear)) }
    }

    @Test("a country is two letters, stored upper-case; blank clears it; anything else is refused with the reason")
    func countryCodes() async throws {
        let provider = try await Self.make(country: nil)
        #expect(try await provider.setTeamCountry(" kr ", teamID: Self.korean).country == "KR")
        #expect(try await provider.setTeamCountry("", teamID: Self.korean).country == nil)
        for bad in ["KOR", "K", "K1", "한국"] {
            await #expect(
                throws: ConsoleError.invalid("The country \(bad) is not valid. Enter its two-letter ISO 3166-1 code, such as KR.")
            ) { _ = try await provider.setTeamCountry(bad, teamID: Self.korean) }
        }
        await #expect(throws: ConsoleError.self) { _ = try await provider.setTeamCountry("KR", teamID: "NOSUCHTEAM") }
    }
}
