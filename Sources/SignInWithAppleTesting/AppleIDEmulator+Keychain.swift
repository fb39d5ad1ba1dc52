import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import SignInWithApple

// The words of the two-provider launch check, available with `import SignInWithAppleTesting` alone.
@_exported import enum AppleIDProtocol.NativeCredentialProvider
@_exported import struct AppleIDProtocol.OfferedCredential
@_exported import enum AppleIDProvider.CredentialPick
@_exported import enum AppleIDProvider.NativeDecline

/// What the app receives from the device's sheet at launch, when it asks for existing credentials
/// of both providers (`performExistingAccountSetupFlows`).
public struct ExistingCredentialResult: Sendable {
    public enum Credential: Sendable {
        /// `ASAuthorizationAppleIDCredential`, as the app's backend receives it.
        case appleID(AuthorizationCallback)
        /// `ASPasswordCredential`: a password saved in the user's iCloud Keychain.
        case password(user: String, password: String)
        /// `ASAuthorizationError.canceled`: nothing to offer, or the user picked nothing offered.
        case canceled
        /// Another `ASAuthorizationError`: passkey account creation among the providers, declined.
        case declined(NativeDecline)
    }

    /// What the sheet listed, in its order.
    public let offered: [OfferedCredential]
    public let credential: Credential
}

/// The emulated device's keychain and the emulated App ID's associated domains.
///
/// ```swift
/// try await withAppleIDEmulator { apple in
///     try await apple.associateDomains(webCredentials: ["juice.example.com"])
///     try await apple.saveKeychainPassword(user: "maria", password: "secret", domain: "juice.example.com", for: apple.defaultUser.appleID)
///     let launch = try await apple.existingCredential(for: apple.defaultUser.appleID)
///     guard case .password(let user, let password) = launch.credential else { return }
/// }
/// ```
extension AppleIDEmulator {
    /// Saves a password for a website in the Apple ID's iCloud Keychain (replacing one saved for the
    /// same user name there).
    public func saveKeychainPassword(user: String, password: String, domain: String, for appleID: String) async throws {
        guard try await provider.saveKeychainPassword(user: user, password: password, domain: domain, appleID: appleID) != nil else {
            throw EmulatorError.unknownAppleID(appleID)
        }
    }

    /// Removes a saved password from the Apple ID's keychain.
    public func removeKeychainPassword(user: String, domain: String, for appleID: String) async throws {
        guard try await provider.removeKeychainPassword(user: user, domain: domain, appleID: appleID) != nil else {
            throw EmulatorError.unknownAppleID(appleID)
        }
    }

    /// Sets the emulated App ID's associated domains for `webcredentials` (its entitlement).
    public func associateDomains(webCredentials domains: [String]) async throws {
        _ = try await provider.setWebCredentialsDomains(domains, appID: ClientID(rawValue: bundleID), teamID: nil)
    }

    /// The launch-time check of an app asking for existing credentials of `providers`: the Apple ID
    /// credential if the user already signed in with Apple, else the first password saved for one
    /// of the App ID's associated domains, unless `pick` names another credential of the sheet.
    public func existingCredential(
        for appleID: String, providers: Set<NativeCredentialProvider> = [.appleID, .password], pick: CredentialPick? = nil,
        nonce: Nonce? = nil
    ) async throws -> ExistingCredentialResult {
        let sheet = try await provider.presentNativeSheet(
            NativeCredentialRequest(
                bundleID: ClientID(rawValue: bundleID), appleID: appleID, providers: providers, existingOnly: true, pick: pick,
                nonce: nonce?.transmittedValue))
        switch sheet.credential {
        case .appleID(let result): return ExistingCredentialResult(offered: sheet.offered, credential: .appleID(try callback(from: result)))
        case .password(let saved):
            return ExistingCredentialResult(offered: sheet.offered, credential: .password(user: saved.user, password: saved.password))
        case .canceled: return ExistingCredentialResult(offered: sheet.offered, credential: .canceled)
        case .declined(let decline): return ExistingCredentialResult(offered: sheet.offered, credential: .declined(decline))
        }
    }

    /// What the app's passkey account creation request (iOS 26, `ASAuthorizationAccountCreationProvider`)
    /// gets for `appleID`: `.preferSignInWithApple` (1009) when the user already signed in to the app
    /// with Apple, so the app's fallback into Sign in with Apple can be tested; else
    /// `.passkeySheetNotEmulated`, where a device would show the passkey sheet.
    public func requestPasskeyAccountCreation(for appleID: String) async throws -> NativeDecline {
        let sheet = try await provider.presentNativeSheet(
            NativeCredentialRequest(bundleID: ClientID(rawValue: bundleID), appleID: appleID, providers: [.passkeyAccountCreation]))
        switch sheet.credential {
        case .declined(let decline): return decline
        case .appleID(.unknownAppleID): throw EmulatorError.unknownAppleID(appleID)
        case .appleID(.rejected(let error)): throw EmulatorError.refused(error)
        case .appleID(.answered), .password, .canceled: preconditionFailure("a passkey-only request is declined or refused")
        }
    }
}
