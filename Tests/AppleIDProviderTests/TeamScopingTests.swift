import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

@Suite("Team-scoped identities and Hide My Email")
struct TeamScopingTests {
    @Test("sub is stable within a team and different across teams")
    func subjects() async throws {
        let harness = try await ProviderHarness.make()
        let a1 = try harness.claims(try await harness.authorize(group: "com.a.app", hideEmail: false))
        let a2 = try harness.claims(try await harness.authorize(group: "com.a.app", hideEmail: false))
        let b = try harness.claims(try await harness.authorize(group: "com.b.app", hideEmail: false))
        #expect(a1.subject == a2.subject)
        #expect(a1.subject != b.subject)
    }

    @Test("the relay address is per team, stable across re-authorization after revocation, on the relay domain")
    func relayAddresses() async throws {
        let harness = try await ProviderHarness.make()
        let first = try await harness.authorize(group: "com.a.app", hideEmail: true)
        let firstUser = try #require(first.issued?.user)
        let relay = try #require(firstUser.email)
        #expect(relay.wholeMatch(of: #/[a-z0-9]{10}@privaterelay\.appleid\.com/#) != nil)
        #expect(try harness.claims(first).isPrivateEmail?.value == true)

        let account = try #require(try await harness.store.account(appleID: "maria@example.com"))
        try await harness.store.deleteConsent(accountID: account.id, groupID: "com.a.app")
        let again = try await harness.authorize(group: "com.a.app", hideEmail: true)
        #expect(try #require(again.issued?.user).email == relay)

        let otherTeam = try await harness.authorize(group: "com.b.app", hideEmail: true)
        let otherRelay = try #require(otherTeam.issued?.user).email
        #expect(otherRelay != relay)
    }

    @Test("sharing the real address sends it without is_private_email")
    func sharedAddress() async throws {
        let harness = try await ProviderHarness.make()
        let answer = try await harness.authorize(group: "com.a.app", hideEmail: false)
        let claims = try harness.claims(answer)
        #expect(claims.email == "Maria@Example.com")
        #expect(claims.isPrivateEmail == nil)
        #expect(claims.emailVerified?.value == true)
    }

    @Test("Apple IDs are found whatever their case")
    func appleIDCase() async throws {
        let harness = try await ProviderHarness.make()
        var account = try #require(try await harness.store.account(appleID: "MARIA@example.COM"))
        #expect(account.appleID == "maria@example.com")
        account.appleID = "New.Name@Example.com"
        #expect(account.appleID == "new.name@example.com")
    }
}
