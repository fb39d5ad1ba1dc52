import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// The launch-time existing-credential check (`ASAuthorizationAppleIDProvider` and
/// `ASAuthorizationPasswordProvider` together), at the engine.
@Suite("Native credential sheet: Apple ID credentials and keychain passwords")
struct NativeCredentialSheetTests {
    static let app: ClientID = "com.a.app"
    static let maria = "maria@example.com"

    /// The harness with an App ID associated with `a.example` and two of Maria's passwords there,
    /// saved one after the other, and one for a website the app is not associated with.
    static func harness() async throws -> ProviderHarness {
        let harness = try await ProviderHarness.make()
        try await harness.store.save(RegisteredClient(id: app, kind: .app, teamID: "TEAMAAAAAA", groupID: app))
        _ = try await harness.provider.setWebCredentialsDomains(["webcredentials:A.example"], appID: app, teamID: nil)
        for (user, domain) in [("maria", "a.example"), ("maria.work", "a.example"), ("maria", "elsewhere.example")] {
            _ = try await harness.provider.saveKeychainPassword(user: user, password: "pw-\(user)-\(domain)", domain: domain, appleID: maria)
            harness.clock.advance(by: 1)
        }
        return harness
    }

    static func sheet(
        _ harness: ProviderHarness, pick: CredentialPick? = nil, providers: Set<NativeCredentialProvider> = [.appleID, .password]
    )
        async throws -> NativeCredentialSheet
    {
        try await harness.provider.presentNativeSheet(
            NativeCredentialRequest(bundleID: app, appleID: maria, providers: providers, existingOnly: true, pick: pick))
    }

    static func password(_ sheet: NativeCredentialSheet) -> KeychainPassword? {
        if case .password(let password) = sheet.credential { return password }
        return nil
    }

    static func isAppleIDCredential(_ sheet: NativeCredentialSheet) -> Bool {
        if case .appleID(.answered(let answer)) = sheet.credential { return answer.issued?.idToken != nil }
        return false
    }

    static let passwords = [OfferedCredential(type: .password, user: "maria"), OfferedCredential(type: .password, user: "maria.work")]

    @Test("before the user signed in with Apple the sheet offers the associated domain's passwords and takes the first saved")
    func passwordsBeforeAppleID() async throws {
        let harness = try await Self.harness()
        let sheet = try await Self.sheet(harness)
        #expect(sheet.offered == Self.passwords)
        #expect(
            Self.password(sheet)
                == KeychainPassword(
                    accountID: try #require(Self.password(sheet)?.accountID), domain: "a.example", user: "maria", password: "pw-maria-a.example",
                    savedAt: ProviderHarness.now))
    }

    @Test("once the user signed in with Apple the sheet lists the Apple ID credential first and takes it without a pick")
    func appleIDBeforePasswords() async throws {
        let harness = try await Self.harness()
        _ = try await harness.provider.authorizeNative(bundleID: Self.app, appleID: Self.maria, scopes: [.email], nonce: nil)
        let sheet = try await Self.sheet(harness)
        #expect(sheet.offered == [OfferedCredential(type: .appleID)] + Self.passwords)
        #expect(Self.isAppleIDCredential(sheet))
        let picked = try await Self.sheet(harness, pick: .password(user: "maria.work"))
        #expect(Self.password(picked)?.password == "pw-maria.work-a.example")
        #expect(Self.password(try await Self.sheet(harness, pick: .password(user: nil)))?.user == "maria")
    }

    @Test("a pick the sheet does not offer, or nothing to offer, is canceled")
    func canceled() async throws {
        let harness = try await Self.harness()
        let noAppleID = try await Self.sheet(harness, pick: .appleID)
        #expect(noAppleID.offered == Self.passwords)
        guard case .canceled(.pickNotOffered) = noAppleID.credential else {
            Issue.record("not canceled: \(noAppleID.credential)")
            return
        }
        let stranger = try await Self.sheet(harness, pick: .password(user: "nobody"))
        guard case .canceled = stranger.credential else {
            Issue.record("not canceled: \(stranger.credential)")
            return
        }
        let appleIDOnly = try await Self.sheet(harness, providers: [.appleID])
        #expect(appleIDOnly.offered.isEmpty)
        guard case .canceled(.nothingToOffer) = appleIDOnly.credential else {
            Issue.record("not canceled: \(appleIDOnly.credential)")
            return
        }
    }

    @Test("a password saved for a domain the App ID is not associated with is offered to nobody")
    func notAssociated() async throws {
        let harness = try await Self.harness()
        _ = try await harness.provider.setWebCredentialsDomains([], appID: Self.app, teamID: nil)
        let sheet = try await Self.sheet(harness, providers: [.password])
        #expect(sheet.offered.isEmpty)
        guard case .canceled = sheet.credential else {
            Issue.record("not canceled: \(sheet.credential)")
            return
        }
    }

    @Test("a removed password is no longer offered")
    func removed() async throws {
        let harness = try await Self.harness()
        #expect(try await harness.provider.removeKeychainPassword(user: "maria", domain: "A.example", appleID: Self.maria) == true)
        #expect(try await harness.provider.removeKeychainPassword(user: "maria", domain: "a.example", appleID: Self.maria) == false)
        let sheet = try await Self.sheet(harness)
        #expect(sheet.offered == [OfferedCredential(type: .password, user: "maria.work")])
        #expect(Self.password(sheet)?.user == "maria.work")
    }

    @Test("deleting the Apple ID deletes its keychain")
    func deletedAppleID() async throws {
        let harness = try await Self.harness()
        let account = try #require(try await harness.provider.lookUpAccount(appleID: Self.maria))
        try await harness.provider.lifecycle.deleteAccount(accountID: account.id)
        #expect(try await harness.store.keychainPasswords(accountID: account.id).isEmpty)
        #expect(try await harness.provider.keychainPasswords(appleID: Self.maria) == nil)
    }

    @Test("without existing-only the Apple ID provider alone signs the user up, as before")
    func signUp() async throws {
        let harness = try await Self.harness()
        let sheet = try await harness.provider.presentNativeSheet(
            NativeCredentialRequest(bundleID: Self.app, appleID: Self.maria, scopes: [.name, .email]))
        #expect(sheet.offered == [OfferedCredential(type: .appleID)])
        guard case .appleID(.answered(let answer)) = sheet.credential else {
            Issue.record("no credential: \(sheet.credential)")
            return
        }
        #expect(answer.issued?.user != nil, "a first authorization carries the user")
    }

    @Test("keychain entries and associated domains are checked with the engine's domain rules")
    func domainRules() async throws {
        let harness = try await Self.harness()
        await #expect(throws: ConsoleError.invalid("https://a.example: enter a domain name only, without https:// or a path.")) {
            _ = try await harness.provider.saveKeychainPassword(user: "x", password: "y", domain: "https://a.example", appleID: Self.maria)
        }
        await #expect(throws: ConsoleError.invalid("applinks:a.example: enter a domain name only, without https:// or a path.")) {
            _ = try await harness.provider.setWebCredentialsDomains(["applinks:a.example"], appID: Self.app, teamID: nil)
        }
        await #expect(throws: ConsoleError.notFound("There is no App ID com.a.app.web in this team.")) {
            _ = try await harness.provider.setWebCredentialsDomains(["a.example"], appID: "com.a.app.web", teamID: nil)
        }
        #expect(try await harness.provider.saveKeychainPassword(user: "x", password: "y", domain: "a.example", appleID: "nobody@example.com") == nil)
        #expect(try await harness.store.client(Self.app)?.webCredentialsDomains == ["a.example"])
    }
}
