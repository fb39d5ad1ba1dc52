import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// The id_token and `user` JSON of a Managed Apple ID (spec §21 items 3 to 8).
@Suite("Engine: Managed Apple ID tokens")
struct ManagedIdentityTokenTests {
    @Test("a teacher's id_token: the organization address, email_verified \"false\", org_id, no is_private_email")
    func teacherToken() async throws {
        let managed = try await ManagedHarness.make()
        let payload = try managed.payload(try await managed.authorize(managed.teacher))
        #expect(payload["email"] as? String == "tim@cupertino.example.edu")
        #expect(payload["email_verified"] as? String == "false")
        #expect(payload["org_id"] as? String == managed.school.id.uuidString.lowercased())
        #expect(payload["is_private_email"] == nil)
    }

    @Test("a student without an e-mail: no email claim, still email_verified \"false\" and org_id")
    func studentToken() async throws {
        let managed = try await ManagedHarness.make()
        let payload = try managed.payload(try await managed.authorize(managed.student))
        #expect(payload["email"] == nil)
        #expect(payload["email_verified"] as? String == "false")
        #expect(payload["org_id"] as? String == managed.school.id.uuidString.lowercased())
    }

    @Test("the per-client quirk writes email_verified as a JSON false")
    func booleanQuirk() async throws {
        let managed = try await ManagedHarness.make()
        var client = try #require(try await managed.harness.store.client("com.a.app.web"))
        client.quirks.managedEmailVerifiedStyle = .boolean
        try await managed.harness.store.save(client)
        managed.harness.provider.registryDidChange()
        let payload = try managed.payload(try await managed.authorize(managed.teacher))
        #expect(payload["email_verified"] as? Bool == false)
        #expect(payload["email_verified"] as? String == nil)
    }

    @Test("the user JSON comes once, with the organization's name and e-mail: no relay address, no edited name")
    func userJSONOnce() async throws {
        let managed = try await ManagedHarness.make()
        let first = try await managed.authorize(managed.teacher)
        let user = try #require(first.issued?.user)
        #expect(user.name?.firstName == "Tim")
        #expect(user.name?.lastName == "Teacher")
        #expect(user.email == "tim@cupertino.example.edu")
        #expect(try await managed.authorize(managed.teacher).issued?.user == nil)
        let identity = try await managed.harness.store.teamIdentity(accountID: managed.teacher.id, teamID: ProviderHarness.teamA)
        #expect(identity?.relayAddress == nil, "no Hide My Email for managed accounts")
    }

    @Test("the student's user has the name and no e-mail")
    func studentUserJSON() async throws {
        let managed = try await ManagedHarness.make()
        let user = try #require(try await managed.authorize(managed.student).issued?.user)
        #expect(user.name?.firstName == "Sam")
        #expect(user.email == nil)
    }

    @Test("the organization changes the e-mail: sub stays, the next id_token has the new address")
    func emailChange() async throws {
        let managed = try await ManagedHarness.make()
        let before = try managed.payload(try await managed.authorize(managed.teacher))
        _ = try await managed.harness.provider.organizations.setEmail("tim.new@cupertino.example.edu", accountID: managed.teacher.id)
        let after = try managed.payload(try await managed.authorize(managed.teacher))
        #expect(after["sub"] as? String == before["sub"] as? String)
        #expect(after["email"] as? String == "tim.new@cupertino.example.edu")
    }

    @Test("a consumer Apple ID's token is unchanged: verified e-mail, no org_id")
    func consumerUnchanged() async throws {
        let managed = try await ManagedHarness.make()
        let claims = try managed.harness.claims(try await managed.harness.authorize(group: "com.a.app", hideEmail: false))
        #expect(claims.organizationID == nil)
        #expect(claims.emailVerified?.value == true)
    }
}
