import AppleIDProtocol
import AppleIDProvider
import Foundation
import SignInWithApple
import SignInWithAppleTesting
import Testing

@Suite("Kit against the emulated Apple ID server: user migration after an app transfer", .timeLimit(.minutes(2)))
struct EndToEndTransferTests {
    @Test("the sending team's kit gets the transfer_sub, the recipient's kit the new sub, and the next sign-in carries both")
    func migration() async throws {
        try await withAppleIDEmulator { apple in
            let sender = try SignInWithAppleClient(configuration: apple.clientConfiguration())
            let first = try await sender.completeSignIn(
                try await apple.approve(
                    try await sender.startSignIn(), as: apple.defaultUser.appleID,
                    choices: ConsentChoices(firstName: "Emma", lastName: "Apple", hideEmail: true)))
            let oldSubject = first.identity.subject

            let recipientTeam = try await apple.provider.registerTeam(name: "Recipient")
            _ = try await apple.provider.transfers.transfer(groupID: ClientID(rawValue: apple.bundleID), to: recipientTeam.id)
            let (key, pem) = try await apple.provider.registerKey(teamID: recipientTeam.id, primaryAppID: ClientID(rawValue: apple.bundleID))
            var configuration = apple.clientConfiguration()
            configuration.credentials = AppleCredentials(teamID: recipientTeam.id.rawValue, keyID: key.id.rawValue, privateKeyPEM: pem)
            let recipient = try SignInWithAppleClient(configuration: configuration)

            let senderToken = try await sender.tokens.userMigrationToken()
            let transferSubject = try await sender.tokens.transferSubject(
                for: oldSubject, recipientTeamID: recipientTeam.id.rawValue, accessToken: senderToken.accessToken)
            let recipientToken = try await recipient.tokens.userMigrationToken()
            let migrated = try await recipient.tokens.migratedUser(transferSubject: transferSubject, accessToken: recipientToken.accessToken)
            #expect(migrated.subject != oldSubject)
            #expect(migrated.isPrivateEmail == true)
            #expect(migrated.email != first.identity.email)

            let next = try await recipient.completeSignIn(try await apple.approve(try await recipient.startSignIn(), as: apple.defaultUser.appleID))
            #expect(next.user == nil, "a migrated user is not asked again")
            #expect(next.identity.subject == migrated.subject)
            #expect(next.identity.transferSubject == transferSubject)
            #expect(next.identity.email == migrated.email)

            await #expect(throws: AppleServiceError.self) {
                try await sender.tokens.migratedUser(transferSubject: transferSubject, accessToken: senderToken.accessToken)
            }
        }
    }
}
