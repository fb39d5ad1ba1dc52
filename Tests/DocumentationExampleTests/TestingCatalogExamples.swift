// swift-format-ignore-file
// The examples are the documentation's text, verbatim: formatting them would part them from it.
import SignInWithApple
import SignInWithAppleTesting
import Testing

// SignInWithAppleTesting.docc, verbatim: both examples run against the emulator.

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

@Test func reusedCode() async throws {
    try await withAppleIDEmulator { apple in
        let siwa = try apple.makeClient()
        let pending = try await siwa.startSignIn(browser: .random())
        let code = try #require(try await apple.approve(pending, as: apple.defaultUser.appleID).code)
        _ = try await siwa.tokens.exchange(code: code, redirectURI: apple.redirectURI, codeVerifier: pending.codeVerifier)
        await #expect(throws: AppleServiceError.self) {
            try await siwa.tokens.exchange(code: code, redirectURI: apple.redirectURI, codeVerifier: pending.codeVerifier)
        }
        #expect(apple.lastRefusal(clientID: apple.servicesID)?.reason.contains("was already redeemed") == true)
    }
}
