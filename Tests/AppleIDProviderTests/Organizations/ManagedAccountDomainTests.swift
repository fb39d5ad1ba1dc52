import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// A Managed Apple ID lives under its organization's verified domains (spec §21 item 4: usernames
/// such as `jappleseed@appleid.myschool.edu`; the organization e-mail is the organization's own).
@Suite("Engine: a Managed Apple ID lives under its organization's domains")
struct ManagedAccountDomainTests {
    @Test("a username outside the organization's verified domains is refused")
    func usernameOutsideDomains() async throws {
        let managed = try await ManagedHarness.make()
        await #expect(throws: OrganizationError.self) {
            try await managed.harness.provider.organizations.addAccount(
                to: managed.school.id, username: "intruder@example.com", password: "pw", firstName: "I", lastName: "N")
        }
        #expect(try await managed.harness.provider.lookUpAccount(appleID: "intruder@example.com") == nil)
    }

    @Test("an organization e-mail outside the verified domains is refused, when added and when changed")
    func emailOutsideDomains() async throws {
        let managed = try await ManagedHarness.make()
        let organizations = managed.harness.provider.organizations
        await #expect(throws: OrganizationError.self) {
            try await organizations.addAccount(
                to: managed.school.id, username: "new@appleid.cupertino.example.edu", password: "pw", firstName: "N", lastName: "W",
                email: "new@gmail.example")
        }
        await #expect(throws: OrganizationError.self) {
            try await organizations.setEmail("tim@gmail.example", accountID: managed.teacher.id)
        }
        #expect(try await organizations.accounts(of: managed.school.id).first { $0.id == managed.teacher.id }?.email == "tim@cupertino.example.edu")
    }

    @Test("the verified domain itself and its subdomains are accepted, in any case")
    func subdomainsAccepted() async throws {
        let managed = try await ManagedHarness.make()
        let account = try await managed.harness.provider.organizations.addAccount(
            to: managed.school.id, username: "Kim@AppleID.Cupertino.Example.EDU", password: "pw", firstName: "K", lastName: "M",
            email: "kim@cupertino.example.edu")
        #expect(account.managed?.organizationEmail == "kim@cupertino.example.edu")
    }

    @Test("a verified domain that is not a domain name is refused")
    func verifiedDomainsAreDomainNames() async throws {
        let managed = try await ManagedHarness.make()
        await #expect(throws: OrganizationError.self) {
            try await managed.harness.provider.organizations.add(name: "Bad", kind: .school, verifiedDomains: ["https://school.example/"])
        }
    }

    @Test("an organization without verified domains takes any username (the emulator's quick start)")
    func noDomainsNoRule() async throws {
        let managed = try await ManagedHarness.make()
        let organizations = managed.harness.provider.organizations
        let open = try await organizations.add(name: "Open", kind: .business)
        _ = try await organizations.addAccount(to: open.id, username: "anyone@example.com", password: "pw", firstName: "A", lastName: "O")
    }
}
