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
            #expect(try await store.dueWithdrawals(at: Fixture.date(59), limit: 10).isEmpty)
            #expect(try await store.dueWithdrawals(at: Fixture.date(60), limit: 10) == [first])

            try await store.save(Fixture.account())
            try await store.save(
                Consent(accountID: "acct-1", groupID: "com.example.app", grantedAt: Fixture.t0, scopes: [], email: nil, isPrivateEmail: false))
            try await store.save(
                Consent(accountID: "acct-1", groupID: "com.example.other", grantedAt: Fixture.t0, scopes: [], email: nil, isPrivateEmail: false))
            try await store.save(Fixture.grant(id: "withdrawn"))
            try await store.save(Fixture.grant(id: "kept", groupID: "com.example.other"))
            let message = OutboxMessage(
                id: "m1", groupID: "com.example.app", audience: "com.example.app",
                event: NotificationEvent(type: .consentRevoked, subject: "000123.abc.0123", eventTime: 1), createdAt: Fixture.date(60))
            try await store.complete(
                first, revoking: [ConsentKey(accountID: "acct-1", groupID: "com.example.app")], at: Fixture.date(60), notifying: [message])

            #expect(try await store.grant(id: "withdrawn")?.revokedAt == Fixture.date(60))
            #expect(try await store.grant(id: "kept")?.revokedAt == nil)
            #expect(try await store.consent(accountID: "acct-1", groupID: "com.example.app") == nil)
            #expect(try await store.consent(accountID: "acct-1", groupID: "com.example.other") != nil)
            #expect(try await store.message(id: "m1") == message)
            #expect(try await store.dueWithdrawals(at: Fixture.date(1000), limit: 10).isEmpty)
        }
    }
}
