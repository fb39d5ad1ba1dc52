import AppleIDProtocol
import Foundation

extension AppleIDProvider {
    /// What a native app receives from `ASAuthorizationAppleIDCredential`, minted without a device: a
    /// code for the bundle ID redeemable without `redirect_uri`, an identity token (`aud` the bundle
    /// ID, `c_hash` of the code, `nonce` as the app sent it), and on the first authorization the
    /// `user` JSON (the app's `fullName` and `email`).
    public func authorizeNative(
        bundleID: ClientID, appleID: String, scopes: [Scope], nonce: String?, choices: ConsentChoices? = nil
    ) async throws -> HeadlessAuthorization {
        try await authorizeNative(bundleID: bundleID, appleID: appleID, scopes: scopes, nonce: nonce) { choices ?? .headlessDefault(for: $0) }
    }

    /// ``authorizeNative(bundleID:appleID:scopes:nonce:choices:)`` with the default choices but for `overrides`.
    public func authorizeNative(
        bundleID: ClientID, appleID: String, scopes: [Scope], nonce: String?, overrides: ConsentOverrides
    ) async throws -> HeadlessAuthorization {
        try await authorizeNative(bundleID: bundleID, appleID: appleID, scopes: scopes, nonce: nonce) {
            .headlessDefault(for: $0, overriding: overrides)
        }
    }

    private func authorizeNative(
        bundleID: ClientID, appleID: String, scopes: [Scope], nonce: String?, choices: (AppleIDAccount) -> ConsentChoices
    ) async throws -> HeadlessAuthorization {
        guard let client = try await store.client(bundleID), client.kind == .app else {
            return .rejected(.invalidClient("\(bundleID) is not a registered App ID"))
        }
        guard let account = try await store.activeAccount(appleID: appleID) else { return .unknownAppleID(appleID) }
        let request = ValidatedAuthorization(
            clientID: client.id, teamID: client.teamID, groupID: client.groupID, redirectURI: "", includesIDToken: true,
            responseMode: .query, scopes: scopes, state: nil, nonce: nonce, codeChallenge: nil, isNative: true)
        let now = clock.now()
        return .answered(
            try await issuer.approve(request, account: account, authTime: now, choices: choices(account), now: now))
    }
}
