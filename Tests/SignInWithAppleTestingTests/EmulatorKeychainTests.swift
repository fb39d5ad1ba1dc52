import Foundation
import SignInWithApple
import SignInWithAppleTesting
import Testing

/// The emulator's façade for the two-provider launch check, as the DocC article shows it.
@Suite("Emulator: keychain passwords and the two-provider launch check", .timeLimit(.minutes(5)))
struct EmulatorKeychainTests {
    @Test("the launch check: canceled with nothing saved, the associated password, then the Apple ID credential that verifies")
    func launchCheck() async throws {
        try await withAppleIDEmulator { apple in
            let appleID = apple.defaultUser.appleID
            let nothing = try await apple.existingCredential(for: appleID)
            #expect(nothing.offered.isEmpty)
            guard case .canceled = nothing.credential else {
                Issue.record("not canceled: \(nothing.credential)")
                return
            }

            try await apple.associateDomains(webCredentials: ["webcredentials:shop.example.com"])
            try await apple.saveKeychainPassword(user: "maria", password: "saved-secret", domain: "shop.example.com", for: appleID)
            try await apple.saveKeychainPassword(user: "maria", password: "other", domain: "unrelated.example.com", for: appleID)
            let password = try await apple.existingCredential(for: appleID)
            #expect(password.offered == [OfferedCredential(type: .password, user: "maria")])
            guard case .password("maria", "saved-secret") = password.credential else {
                Issue.record("no password credential: \(password.credential)")
                return
            }

            _ = try await apple.nativeCredential(as: appleID)
            let nonce = Nonce(raw: "launch", convention: .sha256)
            let launch = try await apple.existingCredential(for: appleID, nonce: nonce)
            #expect(launch.offered == [OfferedCredential(type: .appleID), OfferedCredential(type: .password, user: "maria")])
            guard case .appleID(let credential) = launch.credential else {
                Issue.record("no Apple ID credential: \(launch.credential)")
                return
            }
            let backend = try SignInWithAppleClient(configuration: apple.nativeClientConfiguration())
            _ = try await backend.identityTokens.verify(
                try #require(credential.idToken), nonce: nonce, authorizationCode: try #require(credential.code))
            #expect(credential.user == nil, "an existing credential carries no name or e-mail")

            try await apple.removeKeychainPassword(user: "maria", domain: "shop.example.com", for: appleID)
            let passwordOnly = try await apple.existingCredential(for: appleID, providers: [.password])
            #expect(passwordOnly.offered.isEmpty)
        }
    }
}
