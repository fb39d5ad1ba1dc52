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

// LaunchCredentialCheck.md, verbatim.

@Test func launchOffersSavedPasswordThenAppleID() async throws {
    try await withAppleIDEmulator { apple in
        let appleID = apple.defaultUser.appleID
        try await apple.associateDomains(webCredentials: ["juice.example.com"])
        try await apple.saveKeychainPassword(user: "emma", password: "orange-juice", domain: "juice.example.com", for: appleID)

        let first = try await apple.existingCredential(for: appleID)
        #expect(first.offered == [OfferedCredential(type: .password, user: "emma")])
        guard case .password(let user, let password) = first.credential else {
            Issue.record("the saved password is offered")
            return
        }
        #expect(user == "emma" && password == "orange-juice")

        _ = try await apple.signIn(as: appleID, with: try apple.makeClient())
        let later = try await apple.existingCredential(for: appleID)
        #expect(later.offered.first == OfferedCredential(type: .appleID))
        guard case .appleID(let credential) = later.credential else {
            Issue.record("the Apple ID credential comes first")
            return
        }
        #expect(credential.idToken != nil)
    }
}
