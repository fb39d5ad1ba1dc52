import AppleIDProtocol
import AppleIDProvider
import Foundation
import SignInWithApple

// What the user chooses on the consent page, for `signIn(as:with:choices:)`: available with
// `import SignInWithAppleTesting` alone.
@_exported import struct AppleIDProvider.ConsentChoices
@_exported import enum AppleIDProvider.CredentialState

/// What a test does to the emulated Apple, in the words of Apple's documentation: no reaching into
/// the server's engine or store.
///
/// ```swift
/// try await withAppleIDEmulator { apple in
///     let siwa = try apple.makeClient()
///     let first = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
///     try await apple.stopUsing(appleID: apple.defaultUser.appleID)
///     let notifications = try await apple.deliveredNotifications()
///     #expect(notifications.map(\.type) == ["consent-revoked"])
/// }
/// ```
extension AppleIDEmulator {
    /// A kit client for the emulated app group, on the emulator's clock (``advanceClock(by:)`` moves both).
    public func makeClient(
        storage: any SignInWithAppleStorage = MemorySignInWithAppleStorage(), scopes: [Scope] = [.name, .email]
    ) throws -> SignInWithAppleClient {
        let clock = self.clock
        return try SignInWithAppleClient(configuration: clientConfiguration(scopes: scopes), storage: storage, clock: { clock.now() })
    }

    /// A whole web sign-in with `client`, in one browser: start, sign-in and consent as `appleID`
    /// (choosing `choices`, by default the user's name and real e-mail), the callback, the completion.
    public func signIn(
        as appleID: String, with client: SignInWithAppleClient, choices: ConsentChoices? = nil, scopes: [Scope]? = nil
    ) async throws -> SignInResult {
        let browser = BrowserBinding.random()
        let pending = try await client.startSignIn(scopes: scopes, browser: browser)
        let callback = try await approve(pending, as: appleID, choices: choices)
        let token = try await client.acceptCallback(callback)
        return try await client.finishSignIn(completionToken: token, browser: browser)
    }

    /// The user stops using their Apple ID with the emulated app (Settings › Apple ID › Sign in with
    /// Apple): its grants are revoked and a `consent-revoked` notification is queued.
    public func stopUsing(appleID: String) async throws {
        try await provider.lifecycle.stopUsing(accountID: try accountID(of: appleID), groupID: ClientID(rawValue: bundleID))
    }

    /// The user turns forwarding to their Hide My Email address for the emulated team on or off
    /// (`email-enabled` / `email-disabled`).
    public func setEmailForwarding(_ enabled: Bool, for appleID: String) async throws {
        try await provider.lifecycle.setRelayForwarding(accountID: try accountID(of: appleID), teamID: TeamID(rawValue: teamID), enabled: enabled)
    }

    /// The user deletes their Apple ID (`account-delete`).
    public func deleteAppleID(_ appleID: String) async throws {
        try await provider.lifecycle.deleteAccount(accountID: try accountID(of: appleID))
    }

    /// Transfers the emulated app group to a new team, named `teamName`, and returns the kit
    /// configuration of the recipient (its Team ID and a new key of its own).
    public func transferApp(toNewTeam teamName: String = "Recipient") async throws -> SignInWithAppleClient.Configuration {
        let recipient = try await provider.registerTeam(name: teamName)
        _ = try await provider.transfers.transfer(groupID: ClientID(rawValue: bundleID), to: recipient.id)
        let (key, pem) = try await provider.registerKey(teamID: recipient.id, primaryAppID: ClientID(rawValue: bundleID))
        var configuration = clientConfiguration()
        configuration.credentials = AppleCredentials(teamID: recipient.id.rawValue, keyID: key.id.rawValue, privateKeyPEM: pem)
        return configuration
    }

    /// Rotates the server's signing keys: the next key signs, the previous one is still published.
    public func rotateKeys() async throws {
        try await provider.rotateSigningKeys()
    }

    /// The `kid` the server signs with now.
    public var signingKeyID: String { provider.keyRing.activeKeyID.rawValue }

    /// Moves the emulator's clock, which clients from ``makeClient(storage:scopes:)`` share.
    public func advanceClock(by seconds: TimeInterval) {
        clock.advance(by: seconds)
    }

    private func accountID(of appleID: String) async throws -> String {
        guard let account = try await provider.lookUpAccount(appleID: appleID) else { throw EmulatorError.unknownAppleID(appleID) }
        return account.id
    }
}
