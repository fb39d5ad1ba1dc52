import AppleIDProtocol
import Foundation

extension NotificationEvent {
    /// Whether this event speaks about a sign-in (a session, a grant) that began at `start`: it
    /// happened at or after `start`.
    ///
    /// Apple queues notifications while your endpoint is down and delivers them later, possibly after
    /// the person signed in again: a `consent-revoked` from before that sign-in is about the earlier
    /// authorization, and must not end the new session. A tie counts as applying (the safe side).
    ///
    /// ```swift
    /// case .consentRevoked:
    ///     try await sessions.endAll(forSubject: event.subject, where: { event.appliesToSignIn(begunAt: $0.startedAt) })
    /// ```
    public func appliesToSignIn(begunAt start: Date) -> Bool {
        // Compared in the event's own unit (milliseconds on the wire, seconds in Apple's document),
        // `start` cut down to it: an event in the same millisecond (or second) as the start applies.
        let perSecond: Double = eventTime < 100_000_000_000 ? 1 : 1000
        return Double(eventTime) >= (start.timeIntervalSince1970 * perSecond).rounded(.down)
    }
}
