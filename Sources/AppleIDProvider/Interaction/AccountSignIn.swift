import AppleIDProtocol
import Foundation

/// The outcome of one sign-in step (a password or a two-factor code).
public enum SignInStep<Value: Sendable>: Sendable {
    case passed(Value)
    /// Wrong, without saying whether the Apple ID exists.
    case incorrect
    /// The Apple ID is locked after too many failed attempts; nothing was checked.
    case locked(until: Date)
}

/// A browser signed in to an Apple ID: the session cookie's value and the stored session.
public struct BrowserSignIn: Sendable {
    public let cookie: String
    public let session: BrowserSession
    public let account: AppleIDAccount
}

extension InteractionService {
    /// Checks the Apple ID and password: the first step on the authorization pages and the account
    /// pages alike. Each attempt on an existing Apple ID is counted before the check
    /// (``SignInLockPolicy``); an unknown Apple ID costs the same bcrypt time as a wrong password.
    /// Throws ``ManagedSignInUnavailable`` when a Managed Apple ID's organization could not check it.
    public func accountForSignIn(appleID: String, password: String) async throws -> SignInStep<AppleIDAccount> {
        guard let account = try await store.activeAccount(appleID: appleID.trimmingCharacters(in: .whitespaces)) else {
            _ = await Credentials.verifyDecoyPassword(password, cost: configuration.passwordHashCost)
            return .incorrect
        }
        if case .locked(let until) = try await store.admitSignInAttempt(accountID: account.id, now: clock.now(), policy: configuration.signInLock) {
            return .locked(until: until)
        }
        guard try await passwordMatches(password, of: account) else { return .incorrect }
        // The password is right: its attempt is given back, the count of earlier failures stays.
        try await store.refundSignInAttempt(accountID: account.id)
        return .passed(account)
    }

    /// A Managed Apple ID's password goes to its organization's sign-in (``ManagedSignInAuthenticator``),
    /// any other's is checked against the stored hash.
    private func passwordMatches(_ password: String, of account: AppleIDAccount) async throws -> Bool {
        guard let managed = account.managed, let organization = try await store.organization(id: managed.organizationID) else {
            return await Credentials.verifyPassword(password, hash: account.passwordHash)
        }
        switch await managedSignIn.checkPassword(password, of: account, in: organization) {
        case .accepted: return true
        case .refused: return false
        case .unavailable:
            // Nothing was decided, and not by the user: the attempt is given back (fail closed, no lock).
            try await store.refundSignInAttempt(accountID: account.id)
            throw ManagedSignInUnavailable()
        }
    }

    /// Checks the two-factor code (when the Apple ID has two-factor on; `nil` only passes when it is
    /// off) and signs the browser in to the account pages (only: their session does not open the
    /// sign-in pages); returns the session cookie's value.
    public func startAccountSession(accountID: String, code: String?) async throws -> SignInStep<String> {
        switch try await signInBrowser(accountID: accountID, code: code, purpose: .accountPages) {
        case .passed(let signIn): .passed(signIn.cookie)
        case .incorrect: .incorrect
        case .locked(let until): .locked(until: until)
        }
    }

    /// The second step shared by the sign-in pages and the account pages: the TOTP code (counted
    /// before the check, and each code accepted once), then a new browser session (only its hash is
    /// stored) for the pages of `purpose`. Called only after the password step passed.
    func signInBrowser(accountID: String, code: String?, purpose: BrowserSession.Purpose) async throws -> SignInStep<BrowserSignIn> {
        guard let account = try await store.activeAccount(id: accountID) else { return .incorrect }
        let now = clock.now()
        if account.twoFactorEnabled {
            if case .locked(let until) = try await store.admitSignInAttempt(accountID: account.id, now: now, policy: configuration.signInLock) {
                return .locked(until: until)
            }
            guard let code,
                let step = Credentials.matchingStep(of: code, secret: account.totpSecret, at: now, window: configuration.secondFactorWindowSteps),
                try await store.acceptSecondFactorStep(step, accountID: account.id)
            else { return .incorrect }
        }
        try await store.clearSignInAttempts(accountID: account.id)
        let cookie = random.hex(bytes: 32)
        let session = BrowserSession(
            idHash: OpaqueToken.hash(cookie), accountID: account.id, authTime: now,
            expiresAt: now.addingTimeInterval(configuration.browserSessionLifetime), purpose: purpose)
        try await store.save(session)
        return .passed(BrowserSignIn(cookie: cookie, session: session, account: account))
    }

    /// The signed-in account of an account-pages session cookie, if the session is live. A session
    /// of the sign-in pages opens nothing here: the account pages ask for the password themselves.
    public func account(accountSessionCookie cookie: String) async throws -> AppleIDAccount? {
        guard let session = try await store.browserSession(idHash: OpaqueToken.hash(cookie)), session.purpose == .accountPages,
            session.expiresAt > clock.now(), let account = try await store.activeAccount(id: session.accountID)
        else { return nil }
        return account
    }

    /// Signs the account pages out (a sign-in pages' session is left alone).
    public func endAccountSession(cookie: String) async throws {
        let idHash = OpaqueToken.hash(cookie)
        guard try await store.browserSession(idHash: idHash)?.purpose == .accountPages else { return }
        try await store.deleteBrowserSession(idHash: idHash)
    }
}
