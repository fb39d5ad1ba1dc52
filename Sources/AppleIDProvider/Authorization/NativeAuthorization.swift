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
        guard let client = try await store.client(bundleID), client.kind == .app else {
            return .rejected(.invalidClient("\(bundleID) is not a registered App ID"))
        }
        guard let account = try await store.account(appleID: appleID), account.deletedAt == nil else { return .unknownAppleID(appleID) }
        let request = ValidatedAuthorization(
            clientID: client.id, teamID: client.teamID, groupID: client.groupID, redirectURI: "", includesIDToken: true,
            responseMode: .query, scopes: scopes, state: nil, nonce: nonce, codeChallenge: nil, isNative: true)
        let now = clock.now()
        return .answered(
            try await issuer.approve(request, account: account, authTime: now, choices: choices ?? .headlessDefault(for: account), now: now))
    }
}
