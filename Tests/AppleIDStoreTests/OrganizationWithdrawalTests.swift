import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import ServerTestSupport
import Testing

/// An organization's app withdrawal on the SQL store (spec §21 item 9): with several instances on
/// one database each user is told once, and a withdrawal costs the same statements for one member
/// as for many.
@Suite("Organization app withdrawal on a shared SQL store")
struct OrganizationWithdrawalTests {
    /// A school allowing Juice, with `members` students who each signed in to it once.
    static func school(_ server: TestEngine, members: Int) async throws -> Organization {
        let organizations = server.provider.organizations
        let school = try await organizations.add(name: "Cupertino High", kind: .school, accessRule: .specificApps, allowedApps: [TestEngine.bundleID])
        for number in 1...members {
            let student = try await organizations.addAccount(
                to: school.id, username: "s\(number)@appleid.cupertino.example.edu", password: "pw", firstName: "S", lastName: "\(number)")
            let request = AuthorizationRequest(
                clientID: TestEngine.servicesID.rawValue, redirectURI: TestEngine.redirectURI, responseType: "code", responseMode: "form_post",
                scope: "name email", state: "s")
            guard case .answered(let answer) = try await server.provider.authorizeHeadless(request, appleID: student.appleID),
                answer.issued != nil
            else { throw WithdrawalTestError.notSignedIn }
        }
        return school
    }

    /// Disallows Juice and moves the instances' clocks to the end of the withdrawal window.
    static func withdrawJuice(from school: Organization, on servers: [TestEngine]) async throws {
        _ = try await servers[0].provider.organizations.disallow(TestEngine.bundleID, in: school.id)
        for server in servers { server.clock.advance(by: server.provider.configuration.appWithdrawalWindow) }
    }

    static func consentRevokedSubjects(_ provider: AppleIDProvider) async throws -> [String] {
        try await provider.deliveryLog(groupID: TestEngine.bundleID, limit: 100).map(\.message)
            .filter { $0.event.type == .consentRevoked }.map(\.event.subject).sorted()
    }

    @Test("two instances sweeping the same due withdrawal at once: each user gets exactly one consent-revoked", .timeLimit(.minutes(5)))
    func oneNotificationPerUserAcrossInstances() async throws {
        let connection = try await SQLiteConnection.open(
            storage: .memory, threadPool: .singleton, logger: Logger(label: "test"), on: MultiThreadedEventLoopGroup.singleton.any())
        do {
            try await Self.raceSameWithdrawal(on: connection)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    /// Two instances, each its own store (its own statement gate) over one database, so that A's
    /// statements can be held mid-sweep while B sweeps.
    static func raceSameWithdrawal(on connection: SQLiteConnection) async throws {
        let held = HeldStatement(connection.sql())
        let storeA = SQLStore(database: held)
        try await storeA.migrate()
        let storeB = SQLStore(database: connection.sql())
        let a = try await TestEngine.make(store: storeA)
        let b = try await TestEngine.make(store: storeB, seeded: true, randomSeed: "instance b")
        let school = try await Self.school(a, members: 2)
        try await Self.withdrawJuice(from: school, on: [a, b])

        // A stops at its first look at the app groups: after it learnt what is due and whose consents go.
        held.hold { $0.contains("app_groups") }
        async let sweepA = a.provider.revokeWithdrawnApps()
        await held.reached()
        let revokedByB = try await b.provider.revokeWithdrawnApps()
        held.release()
        let revokedByA = try await sweepA

        #expect(revokedByA + revokedByB == 2, "A revoked \(revokedByA), B \(revokedByB)")
        let subjects = try await Self.consentRevokedSubjects(a.provider)
        #expect(subjects.count == 2, "consent-revoked sent \(subjects.count) times for 2 users")
        #expect(Set(subjects).count == subjects.count, "a user was told twice")
    }

    @Test("a withdrawal runs as many statements for an organization of 12 members as for 1")
    func statementsDoNotGrowWithMembers() async throws {
        func statements(members: Int) async throws -> Int {
            try await StatementCounter.withSQLiteStore { store, counter in
                let server = try await TestEngine.make(store: store)
                let school = try await Self.school(server, members: members)
                try await Self.withdrawJuice(from: school, on: [server])
                counter.reset()
                #expect(try await server.provider.revokeWithdrawnApps() == members)
                #expect(try await Self.consentRevokedSubjects(server.provider).count == members)
                return counter.statements
            }
        }
        let one = try await statements(members: 1)
        let twelve = try await statements(members: 12)
        #expect(twelve == one, "1 member: \(one) statements, 12 members: \(twelve)")
    }
}

enum WithdrawalTestError: Error {
    case notSignedIn
}
