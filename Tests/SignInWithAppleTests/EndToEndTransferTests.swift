import AppleIDProtocol
import AppleIDProvider
import Foundation
import SignInWithApple
import SignInWithAppleTesting
import Testing

@Suite("Kit against the emulated Apple ID server: user migration after an app transfer", .timeLimit(.minutes(5)))
struct EndToEndTransferTests {
    @Test("the sending team's kit gets the transfer_sub, the recipient's kit the new sub, and the next sign-in carries both")
    func migration() async throws {
        try await withAppleIDEmulator { apple in
            let sender = try apple.makeClient()
            let first = try await apple.signIn(
                as: apple.defaultUser.appleID, with: sender, choices: ConsentChoices(firstName: "Emma", lastName: "Apple", hideEmail: true))
            let oldSubject = first.identity.subject

            let configuration = try await apple.transferApp(toNewTeam: "Recipient")
            let recipientTeamID = configuration.credentials.teamID
            let recipient = try SignInWithAppleClient(configuration: configuration)

            let senderToken = try await sender.tokens.userMigrationToken()
            let transferSubject = try await sender.tokens.transferSubject(
                for: oldSubject, recipientTeamID: recipientTeamID, accessToken: senderToken.accessToken)
            let recipientToken = try await recipient.tokens.userMigrationToken()
            let migrated = try await recipient.tokens.migratedUser(transferSubject: transferSubject, accessToken: recipientToken.accessToken)
            #expect(migrated.subject != oldSubject)
            #expect(migrated.isPrivateEmail == true)
            #expect(migrated.email != first.identity.email)

            let next = try await apple.signIn(as: apple.defaultUser.appleID, with: recipient)
            #expect(next.profile == nil, "a migrated user is not asked again")
            #expect(next.identity.subject == migrated.subject)
            #expect(next.identity.transferSubject == transferSubject)
            #expect(next.identity.email == migrated.email)

            await #expect(throws: AppleServiceError.self) {
                try await sender.tokens.migratedUser(transferSubject: transferSubject, accessToken: senderToken.accessToken)
            }
        }
    }
}
