import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// iOS 26's passkey account creation (`ASAuthorizationAccountCreationProvider`): for someone who already
/// signed in to the app with Apple, the system answers `ASAuthorizationError.preferSignInWithApple`
/// (1009) instead of making a second account, so an app can test its fallback into Sign in with Apple.
@Suite("Native credential sheet: passkey account creation and preferSignInWithApple")
struct PasskeyAccountCreationTests {
    static let app: ClientID = "com.a.app"
    static let maria = "maria@example.com"

    static func harness() async throws -> ProviderHarness {
        let harness = try await ProviderHarness.make()
        try await harness.store.save(RegisteredClient(id: app, kind: .app, teamID: "TEAMAAAAAA", groupID: app))
        return harness
    }

    static func createPasskeyAccount(
        _ harness: ProviderHarness, also providers: Set<NativeCredentialProvider> = []
    ) async throws
        -> NativeCredentialSheet
    {
        try await harness.provider.presentNativeSheet(
            NativeCredentialRequest(bundleID: app, appleID: maria, providers: providers.union([.passkeyAccountCreation])))
    }

    @Test("someone who signed in to the app with Apple is answered preferSignInWithApple (1009), the Apple ID credential offered")
    func existingAccount() async throws {
        let harness = try await Self.harness()
        _ = try await harness.provider.authorizeNative(bundleID: Self.app, appleID: Self.maria, scopes: [.email], nonce: nil)
        let sheet = try await Self.createPasskeyAccount(harness)
        guard case .declined(let decline) = sheet.credential else {
            Issue.record("not declined: \(sheet.credential)")
            return
        }
        #expect(decline == .preferSignInWithApple)
        #expect(decline.code == 1009)
        #expect(decline.errorName == "ASAuthorizationError.preferSignInWithApple")
        #expect(sheet.offered == [OfferedCredential(type: .appleID)])
    }

    @Test("someone who never signed in with Apple gets the passkey sheet, which this server does not make: notHandled (1003)")
    func noAccountYet() async throws {
        let harness = try await Self.harness()
        let sheet = try await Self.createPasskeyAccount(harness)
        guard case .declined(let decline) = sheet.credential else {
            Issue.record("not declined: \(sheet.credential)")
            return
        }
        #expect(decline == .passkeySheetNotEmulated)
        #expect(decline.code == 1003)
        #expect(sheet.offered.isEmpty)
    }

    @Test("after the user stops using Apple ID with the app, passkey account creation is no longer declined for it")
    func afterStopUsing() async throws {
        let harness = try await Self.harness()
        _ = try await harness.provider.authorizeNative(bundleID: Self.app, appleID: Self.maria, scopes: [.email], nonce: nil)
        let account = try #require(try await harness.provider.lookUpAccount(appleID: Self.maria))
        try await harness.provider.lifecycle.stopUsing(accountID: account.id, groupID: Self.app)
        guard case .declined(.passkeySheetNotEmulated) = try await Self.createPasskeyAccount(harness).credential else {
            Issue.record("still declined as an existing account")
            return
        }
    }

    @Test("asked beside the Apple ID provider with no existing account, the sheet goes on as a Sign in with Apple sign-up")
    func besideAppleID() async throws {
        let harness = try await Self.harness()
        let sheet = try await Self.createPasskeyAccount(harness, also: [.appleID])
        guard case .appleID(.answered(let answer)) = sheet.credential else {
            Issue.record("no Apple ID credential: \(sheet.credential)")
            return
        }
        #expect(answer.issued?.idToken != nil)
    }
}
