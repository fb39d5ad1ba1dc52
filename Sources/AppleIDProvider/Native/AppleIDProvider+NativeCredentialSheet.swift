import AppleIDProtocol

extension AppleIDProvider {
    /// The device's credential sheet for an app that asks for the Apple ID provider, the password
    /// provider or both. It lists the Apple ID credential when the user already authorized the app
    /// group (or, unless `existingOnly`, for signing up), then every keychain password saved for one
    /// of the App ID's `webcredentials` domains, oldest first. Without a pick, the user takes the
    /// existing Apple ID credential, else the first password, else signs up with the Apple ID. Passkey
    /// account creation (iOS 26) is declined with `preferSignInWithApple` for someone who already signed
    /// in to the app with Apple (``NativeDecline``).
    public func presentNativeSheet(_ request: NativeCredentialRequest) async throws -> NativeCredentialSheet {
        guard let client = try await store.client(request.bundleID), client.kind == .app else {
            return NativeCredentialSheet(
                offered: [], credential: .appleID(.rejected(.invalidClient("\(request.bundleID) is not a registered App ID"))))
        }
        guard let account = try await store.activeAccount(appleID: request.appleID) else {
            return NativeCredentialSheet(offered: [], credential: .appleID(.unknownAppleID(request.appleID)))
        }
        let asksForAppleID = request.providers.contains(.appleID)
        let asksForPasskeyAccount = request.providers.contains(.passkeyAccountCreation)
        var hasAppleIDCredential = false
        if asksForAppleID || asksForPasskeyAccount {
            hasAppleIDCredential = try await store.consent(accountID: account.id, groupID: client.groupID) != nil
        }
        // iOS 26: the system declines passkey account creation for someone with a Sign in with Apple
        // account here, before any sheet; with no account, a device would show the passkey sheet.
        if asksForPasskeyAccount && hasAppleIDCredential {
            return NativeCredentialSheet(offered: [OfferedCredential(type: .appleID)], credential: .declined(.preferSignInWithApple))
        }
        if asksForPasskeyAccount && request.providers.count == 1 {
            return NativeCredentialSheet(offered: [], credential: .declined(.passkeySheetNotEmulated))
        }
        // Only an app associated with the website's domain sees its passwords (Apple's webcredentials).
        let passwords =
            request.providers.contains(.password)
            ? try await store.keychainPasswords(accountID: account.id).filter { client.webCredentialsDomains.contains($0.domain) } : []
        var offered = passwords.map { OfferedCredential(type: .password, user: $0.user) }
        if hasAppleIDCredential || (asksForAppleID && !request.existingOnly) { offered.insert(OfferedCredential(type: .appleID), at: 0) }

        let pick = request.pick ?? (hasAppleIDCredential || passwords.isEmpty ? .appleID : .password(user: nil))
        guard !request.userCancels else { return NativeCredentialSheet(offered: offered, credential: .canceled(.userCanceled)) }
        guard offered.contains(where: pick.matches) else {
            return NativeCredentialSheet(offered: offered, credential: .canceled(offered.isEmpty ? .nothingToOffer : .pickNotOffered))
        }
        if let password = passwords.first(where: { pick.matches(OfferedCredential(type: .password, user: $0.user)) }) {
            return NativeCredentialSheet(offered: offered, credential: .password(password))
        }
        // An existing credential is silent: no consent, no new scopes (as preferImmediatelyAvailableCredentials).
        let scopes = hasAppleIDCredential && request.existingOnly ? [] : request.scopes
        let authorization = try await authorizeNative(
            bundleID: request.bundleID, appleID: request.appleID, scopes: scopes, nonce: request.nonce, overrides: request.overrides)
        return NativeCredentialSheet(offered: offered, credential: .appleID(authorization))
    }
}
