import Foundation
import SignInWithApple
import Testing

@testable import SignInWithAppleTesting

/// Managed Apple IDs through the kit and the emulator's façade (spec §21): no e-mail, an
/// unverified one, `org_id`, and an organization that withdraws the app.
@Suite("The kit with Managed Apple IDs", .timeLimit(.minutes(5)))
struct EmulatorManagedTests {
    @Test("a student without an e-mail signs in: no email, email_verified false, org_id typed")
    func student() async throws {
        try await withAppleIDEmulator { apple in
            let school = try await apple.createOrganization(name: "Cupertino High")
            let student = try await apple.createManagedUser(username: "sam@appleid.cupertino.example.edu", in: school)
            let result = try await apple.signIn(as: student.username, with: try apple.makeClient())
            #expect(result.identity.email == nil)
            #expect(result.identity.emailVerified == false)
            #expect(result.identity.claims.emailVerified?.style == .string)
            #expect(result.identity.organizationID == school)
            #expect(result.identity.isPrivateEmail == false)
            #expect(result.profile?.unsignedEmailDiffered == false)
            #expect(result.profile?.name?.firstName == "Test")
        }
    }

    @Test("a teacher's organization address arrives unverified, never hidden")
    func teacher() async throws {
        try await withAppleIDEmulator { apple in
            let school = try await apple.createOrganization()
            let teacher = try await apple.createManagedUser(
                username: "tim@appleid.cupertino.example.edu", in: school, email: "tim@cupertino.example.edu")
            let hide = ConsentChoices(firstName: "Other", lastName: "Name", hideEmail: true)
            let result = try await apple.signIn(as: teacher.username, with: try apple.makeClient(), choices: hide)
            #expect(result.identity.email == "tim@cupertino.example.edu")
            #expect(result.identity.emailVerified == false)
            #expect(result.identity.isPrivateEmail == false)
        }
    }

    @Test("the organization withdraws the app: sign-in fails, and after the window each user gets consent-revoked")
    func withdrawal() async throws {
        try await withAppleIDEmulator { apple in
            let school = try await apple.createOrganization()
            let student = try await apple.createManagedUser(username: "sam@appleid.cupertino.example.edu", in: school)
            let siwa = try apple.makeClient()
            let first = try await apple.signIn(as: student.username, with: siwa)
            try await apple.disallowApp(in: school)
            await #expect(throws: (any Error).self) { try await apple.signIn(as: student.username, with: siwa) }
            apple.advanceClock(by: apple.provider.configuration.appWithdrawalWindow)
            let delivered = try await apple.deliveredNotifications()
            #expect(delivered.map(\.type) == ["consent-revoked"])
            #expect(delivered.map(\.subject) == [first.identity.subject])
        }
    }

    @Test("a deactivated Managed Apple ID cannot sign in")
    func deactivated() async throws {
        try await withAppleIDEmulator { apple in
            let school = try await apple.createOrganization()
            let student = try await apple.createManagedUser(username: "sam@appleid.cupertino.example.edu", in: school)
            try await apple.deactivateManagedUser(student.username)
            await #expect(throws: AppleIDEmulator.EmulatorError.unknownAppleID(student.username)) {
                try await apple.signIn(as: student.username, with: try apple.makeClient())
            }
        }
    }
}
