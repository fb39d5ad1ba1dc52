import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// An organization's access rule, deactivation and deletion (spec §21 items 2, 9 and 10).
@Suite("Engine: organization access")
struct OrganizationAccessTests {
    static func error(_ answer: AuthorizationResponse) -> String? { answer.refusal?.code.rawValue }

    @Test("an app the organization does not allow answers user_cancelled_authorize, not a code")
    func notAllowed() async throws {
        let managed = try await ManagedHarness.make()
        let answer = try await managed.authorize(managed.teacher, group: "com.b.app")
        #expect(answer.refusal?.code == .userCancelledAuthorize)
        #expect(answer.issued == nil)
        #expect(answer.state == "s")
    }

    @Test("all apps: any app may be signed in to")
    func allApps() async throws {
        let managed = try await ManagedHarness.make()
        _ = try await managed.harness.provider.organizations.setAccessRule(.allApps, in: managed.school.id)
        #expect(try await managed.authorize(managed.teacher, group: "com.b.app").issued != nil)
    }

    @Test("a deactivated account cannot sign in")
    func deactivated() async throws {
        let managed = try await ManagedHarness.make()
        _ = try await managed.harness.provider.organizations.setDeactivated(true, accountID: managed.student.id)
        let request = AuthorizationRequest(
            clientID: "com.a.app.web", redirectURI: "https://com.a.app/callback", responseType: "code", responseMode: "form_post", scope: "")
        guard case .unknownAppleID = try await managed.harness.provider.authorizeHeadless(request, appleID: managed.student.appleID) else {
            Issue.record("a deactivated Managed Apple ID still signs in")
            return
        }
    }

    @Test("disallowing an app blocks new sign-ins at once and revokes existing grants when the window ends")
    func withdrawal() async throws {
        let managed = try await ManagedHarness.make()
        let harness = managed.harness
        let secret = try await harness.clientSecret()
        let code = try #require(try await managed.authorize(managed.teacher).issued?.code)
        let tokens = try await harness.redeem(code, secret: secret).get()
        let subject = try #require(try await harness.store.teamIdentity(accountID: managed.teacher.id, teamID: ProviderHarness.teamA)).subject
        _ = try await managed.authorize(managed.student)

        _ = try await harness.provider.organizations.disallow("com.a.app", in: managed.school.id)
        #expect(try await managed.authorize(managed.teacher).refusal?.code == .userCancelledAuthorize, "blocked at once")
        #expect(try await harness.provider.revokeWithdrawnApps() == 0, "not before the window ends")
        #expect(try await harness.provider.credentialState(subject: subject, clientID: "com.a.app.web") == .authorized)

        harness.clock.advance(by: harness.provider.configuration.appWithdrawalWindow)
        #expect(try await harness.provider.revokeWithdrawnApps() == 2)
        let messages = try await harness.store.messages(groupID: "com.a.app", limit: 10)
        #expect(messages.map(\.event.type) == [.consentRevoked, .consentRevoked])
        #expect(messages.map(\.event.subject).contains(subject.rawValue))
        #expect(try await harness.provider.credentialState(subject: subject, clientID: "com.a.app.web") == .revoked)
        #expect(await harness.refresh(try #require(tokens.refreshToken), secret: secret).failure?.code == .invalidGrant)
        #expect(try await harness.provider.revokeWithdrawnApps() == 0, "done once")
    }

    @Test("an app allowed again before the window ends keeps its grants")
    func reallowed() async throws {
        let managed = try await ManagedHarness.make()
        _ = try await managed.authorize(managed.teacher)
        _ = try await managed.harness.provider.organizations.disallow("com.a.app", in: managed.school.id)
        _ = try await managed.harness.provider.organizations.allow("com.a.app", in: managed.school.id)
        managed.harness.clock.advance(by: managed.harness.provider.configuration.appWithdrawalWindow)
        #expect(try await managed.harness.provider.revokeWithdrawnApps() == 0)
        #expect(try await managed.harness.store.messages(groupID: "com.a.app", limit: 10).isEmpty)
    }

    @Test("the withdrawal window is configurable")
    func configurableWindow() async throws {
        let managed = try await ManagedHarness.make { $0.appWithdrawalWindow = 86_400 }
        _ = try await managed.authorize(managed.teacher)
        _ = try await managed.harness.provider.organizations.disallow("com.a.app", in: managed.school.id)
        managed.harness.clock.advance(by: 86_399)
        #expect(try await managed.harness.provider.revokeWithdrawnApps() == 0)
        managed.harness.clock.advance(by: 1)
        #expect(try await managed.harness.provider.revokeWithdrawnApps() == 1)
    }

    @Test("deleting a Managed Apple ID sends account-delete, never email-enabled or email-disabled")
    func deletion() async throws {
        let managed = try await ManagedHarness.make()
        _ = try await managed.authorize(managed.teacher)
        try await managed.harness.provider.organizations.deleteAccount(accountID: managed.teacher.id)
        let events = try await managed.harness.store.messages(groupID: "com.a.app", limit: 10).map(\.event.type)
        #expect(events == [managed.harness.provider.configuration.accountDeletionEvent])
        let accounts = try await managed.harness.provider.organizations.accounts(of: managed.school.id)
        #expect(accounts.first { $0.id == managed.teacher.id }?.managedState == .deleted)
    }
}
