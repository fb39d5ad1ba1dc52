import AppleIDProtocol
import AppleIDProvider
import Foundation

/// A claim of a development notification spoiled on purpose (`siwa check`'s `notify.wrong-aud` and
/// `notify.expired`). The server's real key signs it, so only the app's claim check can catch it.
public enum NotificationFault: String, Sendable, Hashable, CaseIterable, Codable {
    /// An `aud` of no client of the group.
    case wrongAudience = "wrong-aud"
    /// `exp` ten minutes ago (`iat` a day and ten minutes ago); the event itself is fresh.
    case expired
}

/// A signed notification handed back rather than queued: its `jti` and the JWT of `{"payload": …}`.
public struct DevelopmentNotification: Sendable, Hashable {
    public var jwtID: String
    public var payload: String
}

extension AppleIDProvider {
    /// A `consent-revoked` (or `event`: an account deletion in either spelling, for `drift.deletion-spelling`)
    /// for `appleID`'s user of `clientID`'s app group, built and signed as the
    /// delivery builds and signs one (issue 20, `siwa check`). Development mode only. It is handed back,
    /// not queued: the check delivers it to the app's endpoint itself, so it can replay or tamper with
    /// a genuine one without ever holding the server's key, and the group's registered endpoint gets no
    /// copy. Nothing changes in the store: the app is being tested, not the user's consent.
    public func developmentNotification(
        appleID: String, clientID: ClientID, event type: NotificationEventType = .consentRevoked, fault: NotificationFault? = nil
    ) async throws -> DevelopmentNotification {
        guard type == .consentRevoked || type.isAccountDeletion else {
            throw ConsoleError.invalid("event is consent-revoked, account-delete or account-deleted")
        }
        guard configuration.developmentMode else {
            throw ConsoleError.refused("development notifications work only in development mode (siwa serve --development)")
        }
        guard let client = try await registeredClient(clientID), let group = try await registeredAppGroup(client.groupID) else {
            throw ConsoleError.notFound("no client \(clientID)")
        }
        guard let account = try await activeAccount(appleID: appleID),
            let identity = try await teamIdentity(accountID: account.id, teamID: group.teamID)
        else { throw ConsoleError.notFound("\(appleID) has never signed in to an app of \(group.teamID)") }
        let now = clock.now()
        var message = lifecycle.message(type, group: group, subject: identity.subject, at: now)
        if fault == .wrongAudience { message.audience = ClientID(rawValue: group.primaryAppID.rawValue + ".not-this-app") }
        let issuedAt = Int(now.timeIntervalSince1970) - (fault == .expired ? 86_400 + 600 : 0)
        let payload = try signedNotification(message, issuedAt: issuedAt)
        logger.notice(
            "development notification issued", metadata: ["jti": "\(message.id)", "client_id": "\(clientID)", "fault": "\(fault?.rawValue ?? "-")"])
        return DevelopmentNotification(jwtID: message.id, payload: payload)
    }
}
