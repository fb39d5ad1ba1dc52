import SignInWithApple
import SignInWithAppleTesting
import Testing

/// The complete example of SignInWithAppleTesting's DocC page, as written there.
@Suite("DocC examples run as written", .timeLimit(.minutes(2)))
struct DocCExampleTests {
    @Test func userStopsUsingAppleID() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let first = try await apple.signIn(
                as: apple.defaultUser.appleID, with: siwa,
                choices: ConsentChoices(firstName: "Emma", lastName: "Apple", hideEmail: true))
            #expect(first.identity.isPrivateEmail)
            #expect(first.profile?.name?.firstName == "Emma")
            let grant = try #require(first.grant)

            try await apple.stopUsing(appleID: apple.defaultUser.appleID)
            let notification = try #require(try await apple.deliveredNotifications().first)
            guard case .new(let received) = try await siwa.receiveNotification(body: notification.body) else {
                Issue.record("a first delivery is new")
                return
            }
            #expect(received.events.first?.subject == first.identity.subject)

            apple.advanceClock(by: 86_400)
            guard case .revoked = try await siwa.validate(grant) else {
                Issue.record("the grant is revoked")
                return
            }
        }
    }
}
