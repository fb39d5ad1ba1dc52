import Logging
import SignInWithApple

/// Apple's server-to-server notifications, verified by the kit, applied to Juice's accounts.
///
/// - `consent-revoked`: the user stopped using Sign in with Apple with Juice; every session of that
///   Apple user ends at once. The account stays: signing in with Apple again reaches it.
/// - `account-delete` (either spelling): the Apple ID is gone and can never sign in again, so every
///   session ends, an account that only Apple could open is deleted with its data, and an account
///   that also has a password keeps it and loses the Apple link.
/// - `email-disabled` / `email-enabled`: Juice stops / resumes mailing the relay address.
///
/// Each notification is applied once: its `jti` is claimed first and kept until the notification
/// expires, so a replay within those 24 hours is answered 200 without acting again (and a failure
/// gives the claim back, so Apple's retry is applied).
struct AppleNotifications: Sendable {
    let accounts: AccountStore
    let sessions: SessionStore
    let seen: SeenNotifications

    func apply(_ notification: AppleNotification, logger: Logger) async throws {
        guard try await seen.claim(notification.id, until: notification.replayWindowEnd) else {
            logger.notice("Sign in with Apple notification already applied; ignoring the replay", metadata: ["jti": "\(notification.id)"])
            return
        }
        do {
            try await applyEvents(of: notification, logger: logger)
        } catch {
            try? await seen.release(notification.id)
            throw error
        }
    }

    private func applyEvents(of notification: AppleNotification, logger: Logger) async throws {
        for event in notification.events {
            logger.info("Sign in with Apple notification", metadata: ["type": "\(event.type.rawValue)", "jti": "\(notification.id)"])
            guard let account = try await accounts.account(appleSubject: event.subject) else { continue }
            switch event.type {
            case .consentRevoked:
                try await sessions.endAll(accountID: account.id)
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
