import AppleIDProtocol
import Foundation

extension InteractionService {
    /// The Apple ID whose password this is, for the account pages' sign-in (first step); `nil` for a
    /// wrong Apple ID or password, without saying which.
    public func accountForSignIn(appleID: String, password: String) async throws -> AppleIDAccount? {
        guard let account = try await store.account(appleID: appleID.trimmingCharacters(in: .whitespaces)), account.deletedAt == nil,
            await Credentials.verifyPassword(password, hash: account.passwordHash)
        else { return nil }
        return account
    }

    /// Checks the two-factor code (when the Apple ID has two-factor on; `nil` only passes when it is
    /// off) and signs the browser in; returns the session cookie's value.
    public func startBrowserSession(accountID: String, code: String?) async throws -> String? {
        try await signInBrowser(accountID: accountID, code: code)?.cookie
    }

    /// The second step shared by the sign-in pages and the account pages: the TOTP code, then a new
    /// browser session (only its hash is stored).
    func signInBrowser(accountID: String, code: String?) async throws -> (cookie: String, session: BrowserSession)? {
        guard let account = try await store.account(id: accountID), account.deletedAt == nil else { return nil }
        let now = clock.now()
        if account.twoFactorEnabled {
            guard let code, Credentials.verifyCode(code, secret: account.totpSecret, at: now, window: configuration.secondFactorWindowSteps)
            else { return nil }
        }
        let cookie = random.hex(bytes: 32)
        let session = BrowserSession(
            idHash: OpaqueToken.hash(cookie), accountID: account.id, authTime: now,
            expiresAt: now.addingTimeInterval(configuration.browserSessionLifetime))
        try await store.save(session)
        return (cookie, session)
    }

    /// The signed-in account of a session cookie, if the session is live.
    public func account(sessionCookie: String) async throws -> AppleIDAccount? {
        guard let session = try await store.browserSession(idHash: OpaqueToken.hash(sessionCookie)), session.expiresAt > clock.now(),
            let account = try await store.account(id: session.accountID), account.deletedAt == nil
        else { return nil }
        return account
    }

    public func endBrowserSession(cookie: String) async throws {
        try await store.deleteBrowserSession(idHash: OpaqueToken.hash(cookie))
    }
}
