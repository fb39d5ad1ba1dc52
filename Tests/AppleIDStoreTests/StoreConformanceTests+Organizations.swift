import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

extension StoreConformanceTests {
    static let school = Organization(
        id: UUID(uuidString: "6A1F0C2E-3B4D-4E5F-8A9B-0C1D2E3F4A5B")!, kind: .school, name: "Cupertino High",
        verifiedDomains: ["cupertino.example.edu"], accessRule: .specificApps, allowedApps: ["com.example.app", "com.example.other"],
        createdAt: Fixture.t0)

    @Test("an organization round-trips, its access rule and allow list replaced by a later save", arguments: StoreKind.available)
    func organizationRoundTrip(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let business = Organization(id: UUID(), kind: .business, name: "Acme", createdAt: Fixture.date(1))
            #expect(try await store.organization(id: Self.school.id) == nil)
            try await store.save(Self.school, withdrawal: nil)
            try await store.save(business, withdrawal: nil)
            #expect(try await store.organization(id: Self.school.id) == Self.school)
            #expect(try await store.organizations().map(\.name) == ["Acme", "Cupertino High"])

            var changed = Self.school
            changed.accessRule = .allApps
            changed.allowedApps = []
            changed.verifiedDomains = []
            try await store.save(changed, withdrawal: nil)
            #expect(try await store.organization(id: Self.school.id) == changed)
        }
    }

    @Test("a Managed Apple ID keeps its organization, optional e-mail and deactivation", arguments: StoreKind.available)
    func managedAccountRoundTrip(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.save(Self.school, withdrawal: nil)
            var teacher = Fixture.account(id: "teacher", appleID: "teacher@appleid.cupertino.example.edu")
            teacher.managed = ManagedMembership(organizationID: Self.school.id, organizationEmail: "teacher@cupertino.example.edu")
            var student = Fixture.account(id: "student", appleID: "student@appleid.cupertino.example.edu", createdAt: Fixture.date(1))
            student.managed = ManagedMembership(organizationID: Self.school.id, isDeactivated: true)
            let consumer = Fixture.account(id: "consumer", appleID: "jane@example.com")
            for account in [teacher, student, consumer] { try await store.save(account) }

            #expect(try await store.account(id: "teacher") == teacher)
            #expect(try await store.account(id: "student")?.managedState == .deactivated)
            #expect(try await store.account(id: "consumer")?.managed == nil)
            #expect(try await store.accounts(organizationID: Self.school.id).map(\.id) == ["teacher", "student"])
            #expect(try await store.accounts(organizationID: UUID()).isEmpty)
        }
    }

    @Test("a pending withdrawal keeps its earliest time and completes by revoking, notifying and going", arguments: StoreKind.available)
    func withdrawalLifecycle(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let first = PendingWithdrawal(organizationID: Self.school.id, dueAt: Fixture.date(60))
            try await store.save(Self.school, withdrawal: first)
            try await store.save(Self.school, withdrawal: PendingWithdrawal(organizationID: Self.school.id, dueAt: Fixture.date(90)))
            #expect(try await store.claimDueWithdrawals(at: Fixture.date(59), holder: "a", until: Fixture.date(120), limit: 10).isEmpty)
            #expect(try await store.claimDueWithdrawals(at: Fixture.date(60), holder: "a", until: Fixture.date(120), limit: 10) == [first])

            var member = Fixture.account()
            member.managed = ManagedMembership(organizationID: Self.school.id)
            try await store.save(member)
            try await store.save(Fixture.account(id: "consumer", appleID: "consumer@example.com"))
            for (account, group) in [("acct-1", "com.example.app"), ("acct-1", "com.example.gone"), ("consumer", "com.example.gone")] {
                try await store.save(
                    Consent(
                        accountID: account, groupID: ClientID(rawValue: group), grantedAt: Fixture.t0, scopes: [], email: nil, isPrivateEmail: false))
            }
            try await store.save(Fixture.grant(id: "kept"))
            try await store.save(Fixture.grant(id: "withdrawn", groupID: "com.example.gone"))
            try await store.save(Fixture.grant(id: "consumer's", accountID: "consumer", groupID: "com.example.gone"))
            let kept = Self.school.allowedApps
            #expect(
                try await store.consents(organizationID: Self.school.id, outside: kept) == [
                    OrganizationConsent(accountID: "acct-1", groupID: "com.example.gone", subject: nil)
                ], "only the organization's members, only the apps it no longer allows")

            let message = OutboxMessage(
                id: "m1", groupID: "com.example.gone", audience: "com.example.gone",
                event: NotificationEvent(type: .consentRevoked, subject: "000123.abc.0123", eventTime: 1), createdAt: Fixture.date(60))
            #expect(try await store.complete(first, holder: "b", revokingOutside: kept, at: Fixture.date(60), notifying: [message]) == false)
            #expect(try await store.grant(id: "withdrawn")?.revokedAt == nil, "a pass that does not hold the withdrawal writes nothing")
            #expect(try await store.complete(first, holder: "a", revokingOutside: kept, at: Fixture.date(60), notifying: [message]))

            #expect(try await store.grant(id: "withdrawn")?.revokedAt == Fixture.date(60))
            #expect(try await store.grant(id: "kept")?.revokedAt == nil)
            #expect(try await store.grant(id: "consumer's")?.revokedAt == nil)
            #expect(try await store.consent(accountID: "acct-1", groupID: "com.example.gone") == nil)
            #expect(try await store.consent(accountID: "acct-1", groupID: "com.example.app") != nil)
            #expect(try await store.message(id: "m1") == message)
            #expect(try await store.claimDueWithdrawals(at: Fixture.date(1000), holder: "c", until: Fixture.date(1060), limit: 10).isEmpty)
        }
    }

    @Test("a claimed withdrawal goes to one holder until its claim runs out; an organization change hands it back", arguments: StoreKind.available)
    func withdrawalClaims(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let due = PendingWithdrawal(organizationID: Self.school.id, dueAt: Fixture.date(60))
            try await store.save(Self.school, withdrawal: due)
            let now = Fixture.date(60)
            #expect(try await store.claimDueWithdrawals(at: now, holder: "a", until: Fixture.date(180), limit: 10) == [due])
            #expect(try await store.claimDueWithdrawals(at: now, holder: "b", until: Fixture.date(180), limit: 10).isEmpty)
            // A died: once its claim runs out, B takes the withdrawal over, and A can no longer complete it.
            #expect(try await store.claimDueWithdrawals(at: Fixture.date(180), holder: "b", until: Fixture.date(300), limit: 10) == [due])
            #expect(try await store.complete(due, holder: "a", revokingOutside: nil, at: Fixture.date(181), notifying: []) == false)

            try await store.save(Self.school, withdrawal: nil)
            #expect(try await store.complete(due, holder: "b", revokingOutside: nil, at: Fixture.date(182), notifying: []) == false)
            #expect(try await store.claimDueWithdrawals(at: Fixture.date(182), holder: "c", until: Fixture.date(300), limit: 10) == [due])
            #expect(try await store.complete(due, holder: "c", revokingOutside: nil, at: Fixture.date(183), notifying: []))
        }
    }
}
