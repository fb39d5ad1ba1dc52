import Logging
import SignInWithApple

/// Apple's server-to-server notifications, verified by the kit, applied to Juice's accounts.
///
/// - `consent-revoked`: the user stopped using Sign in with Apple with Juice; every session of that
///   Apple user that began before the event ends at once. One that began after it (Apple delivered
///   the event late, after the person signed in again) goes on. The account stays: signing in with
///   Apple again reaches it.
/// - `account-delete` (either spelling): the Apple ID is gone and can never sign in again, so every
///   session ends, an account that only Apple could open is deleted with its data, and an account
///   that also has a password keeps it and loses the Apple link.
/// - `email-disabled` / `email-enabled`: Juice stops / resumes mailing the relay address.
///
/// Each notification is applied once: the kit remembers its `jti` until it expires (in Juice's
/// database), answers a replay 200 without calling this, and forgets the `jti` when this throws, so
/// Apple's retry is applied.
struct AppleNotifications: Sendable {
    let accounts: AccountStore
    let sessions: SessionStore

    func apply(_ notification: AppleNotification, logger: Logger) async throws {
        for event in notification.events {
            logger.info("Sign in with Apple notification", metadata: ["type": "\(event.type.rawValue)", "jti": "\(notification.id)"])
            guard let account = try await accounts.account(appleSubject: event.subject) else { continue }
            switch event.type {
            case .consentRevoked:
                try await sessions.end(accountID: account.id, where: event.appliesToSignIn(begunAt:))
            case let type where type.isAccountDeletion:
                try await sessions.endAll(accountID: account.id)
                if account.hasPassword {
                    try await accounts.detachApple(subject: event.subject)
                } else {
                    try await accounts.delete(id: account.id)
                }
            case .emailDisabled:
                try await accounts.setEmailForwarding(appleSubject: event.subject, enabled: false)
            case .emailEnabled:
                try await accounts.setEmailForwarding(appleSubject: event.subject, enabled: true)
            default:
                continue
            }
        }
    }
}
