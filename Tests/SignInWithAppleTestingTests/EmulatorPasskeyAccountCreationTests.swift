import Foundation
import SignInWithApple
import SignInWithAppleTesting
import Testing

/// An app's fallback from passkey account creation into Sign in with Apple (iOS 26), in the emulator.
@Suite("Emulator: passkey account creation answers preferSignInWithApple to an existing user", .timeLimit(.minutes(5)))
struct EmulatorPasskeyAccountCreationTests {
    @Test("notHandled before the user signed in with Apple, preferSignInWithApple (1009) after a native sign-in")
    func fallback() async throws {
        try await withAppleIDEmulator { apple in
            let appleID = apple.defaultUser.appleID
            #expect(try await apple.requestPasskeyAccountCreation(for: appleID) == .passkeySheetNotEmulated)
            _ = try await apple.nativeCredential(as: appleID)
            let decline = try await apple.requestPasskeyAccountCreation(for: appleID)
            #expect(decline == .preferSignInWithApple)
            #expect(decline.code == 1009)
        }
    }
}
