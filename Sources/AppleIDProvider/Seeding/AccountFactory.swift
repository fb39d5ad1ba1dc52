import AppleIDProtocol
import Foundation

extension AppleIDProvider {
    /// Creates an Apple ID: bcrypt password hash, a fresh TOTP secret unless one is given (a
    /// declaration may fix it, so that a CI run's authenticator codes are known in advance).
    public func createAccount(
        appleID: String, password: String, firstName: String, lastName: String, email: String? = nil,
        realUserStatus: RealUserStatus = .likelyReal, twoFactorEnabled: Bool = true, additionalEmails: [String] = [],
        managed: ManagedMembership? = nil, totpSecret: String? = nil
    ) async throws -> AppleIDAccount {
        let account = AppleIDAccount(
            id: random.hex(bytes: 16), appleID: appleID,
            passwordHash: await hashPassword(password),
            firstName: firstName, lastName: lastName, email: email ?? appleID, realUserStatus: realUserStatus,
            totpSecret: totpSecret ?? random.string(length: 20, alphabet: Credentials.storedSecretAlphabet), twoFactorEnabled: twoFactorEnabled,
            createdAt: clock.now(), additionalEmails: additionalEmails, managed: managed)
        try await store.save(account)
        return account
    }

    /// The account's current two-factor code (shown on the page in development mode).
    public func currentSecondFactorCode(for account: AppleIDAccount) -> String {
        Credentials.currentCode(secret: account.totpSecret, at: clock.now())
    }
}
