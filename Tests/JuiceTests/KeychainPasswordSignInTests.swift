import Foundation
import SignInWithAppleTesting
import Testing

@testable import JuiceApp

/// The launch-time check of Juice's native app, which asks for both providers: its password users
/// sign in with the password their device's keychain offers.
@Suite("Juice: the keychain's password signs a password user in", .timeLimit(.minutes(5)))
struct KeychainPasswordSignInTests {
    @Test("the sheet offers the saved Juice password, Juice's password sign-in accepts it; after Sign in with Apple the Apple ID comes first")
    func keychainPassword() async throws {
        try await withJuice { juice in
            let apple = juice.apple
            let appleID = apple.defaultUser.appleID
            #expect(
                try await juice.browser.signUp(email: "ann@example.com", password: "orange-juice", firstName: "Ann", lastName: "Lee").status
                    == .seeOther)
            try await apple.associateDomains(webCredentials: ["juice.example.com"])
            try await apple.saveKeychainPassword(user: "ann@example.com", password: "orange-juice", domain: "juice.example.com", for: appleID)

            let launch = try await apple.existingCredential(for: appleID)
            #expect(launch.offered == [OfferedCredential(type: .password, user: "ann@example.com")])
            guard case .password(let user, let password) = launch.credential else {
                Issue.record("no password credential: \(launch.credential)")
                return
            }
            let signedIn = try await juice.newBrowser().signIn(email: user, password: password)
            #expect(signedIn.status == .seeOther)
            #expect(signedIn.headers[.location] == "/account")

            _ = try await apple.signIn(as: appleID, with: try apple.makeClient())
            let later = try await apple.existingCredential(for: appleID)
            #expect(later.offered == [OfferedCredential(type: .appleID), OfferedCredential(type: .password, user: "ann@example.com")])
            guard case .appleID(let callback) = later.credential else {
                Issue.record("no Apple ID credential: \(later.credential)")
                return
            }
            #expect(callback.idToken != nil)
        }
    }
}
