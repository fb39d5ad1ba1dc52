import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

@Suite("Interaction details: what the sign-in and consent pages show")
struct InteractionDetailsTests {
    @Test("the Apple ID, the app's name, what is asked, the relay address the team already gave, the default choices")
    func details() async throws {
        let harness = try await ProviderHarness.make()
        let first = harness.provider.interactions
        let relay = try #require(try harness.claims(try await harness.authorize(group: "com.a.app", hideEmail: true)).email)
        let maria = try #require(try await harness.provider.activeAccount(appleID: "maria@example.com"))

        let sameTeam = try await first.details(of: try await interaction(harness, group: "com.a.app", accountID: maria.id))
        #expect(sameTeam.account?.id == maria.id)
        #expect(sameTeam.appName == "com.a.app")
        #expect(sameTeam.asksForName && sameTeam.asksForEmail)
        #expect(sameTeam.relayAddress == relay)
        #expect(sameTeam.defaultChoices == ConsentChoices.headlessDefault(for: maria))

        let otherTeam = try await first.details(of: try await interaction(harness, group: "com.b.app", accountID: maria.id))
        #expect(otherTeam.relayAddress == nil, "hiding would make the other team a new address")

        let beforeSignIn = try await first.details(of: try await interaction(harness, group: "com.a.app", accountID: nil))
        #expect(beforeSignIn.account == nil && beforeSignIn.defaultChoices == nil && beforeSignIn.relayAddress == nil)

        try await harness.provider.lifecycle.deleteAccount(accountID: maria.id)
        let deleted = try await first.details(of: try await interaction(harness, group: "com.a.app", accountID: maria.id))
        #expect(deleted.account == nil, "a deleted Apple ID is unknown")
    }

    private func interaction(_ harness: ProviderHarness, group: String, accountID: String?) async throws -> Interaction {
        let request = AuthorizationRequest(
            clientID: group + ".web", redirectURI: "https://\(group)/callback", responseType: "code id_token", responseMode: "form_post",
            scope: "name email", state: "s", nonce: "n")
        guard case .valid(let validated) = try await harness.provider.validate(request) else { throw ProviderHarness.HarnessError.notAnswered }
        return Interaction(
            id: "ix-\(group)", request: validated, browserBindingHash: "b", csrfToken: "c", stage: accountID == nil ? .signIn : .consent,
            accountID: accountID, createdAt: ProviderHarness.now, expiresAt: ProviderHarness.now.addingTimeInterval(600))
    }
}
