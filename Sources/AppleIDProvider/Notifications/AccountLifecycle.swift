import AppleIDProtocol
import Foundation

/// What an Apple ID user does after signing in, and the notifications each action sends (spec §10,
/// §17.3): stop using the Apple ID with an app, turn relay forwarding off or on, delete the account.
public struct AccountLifecycle: Sendable {
    let provider: AppleIDProvider

    /// "Stop using Apple ID" for an app group: every token revoked, consent reset (the next sign-in is
    /// a first authorization), `consent-revoked` sent.
    public func stopUsing(accountID: String, groupID: ClientID) async throws {
        let now = provider.clock.now()
        guard let group = try await provider.store.appGroup(groupID) else { throw LifecycleError.unknownAppGroup(groupID) }
        let identity = try await provider.store.teamIdentity(accountID: accountID, teamID: group.teamID)
        let messages = identity.map { [message(.consentRevoked, group: group, subject: $0.subject, at: now)] } ?? []
        try await provider.store.stopUsing(accountID: accountID, groupID: groupID, at: now, notifying: messages)
        provider.credentialSignal.signal()
    }

    /// Turns forwarding to the user's inbox off (`email-disabled`) or on (`email-enabled`) for the
    /// relay address of a team: every app group of the team that received that address is told.
    public func setRelayForwarding(accountID: String, teamID: TeamID, enabled: Bool) async throws {
        let now = provider.clock.now()
        guard let identity = try await provider.store.teamIdentity(accountID: accountID, teamID: teamID), let relay = identity.relayAddress
        else { throw LifecycleError.noRelayAddress(teamID) }
        guard identity.relayForwardingEnabled != enabled else { return }
        var messages: [OutboxMessage] = []
        for consent in try await provider.store.consents(accountID: accountID) where consent.email == relay {
            guard let group = try await provider.store.appGroup(consent.groupID), group.teamID == teamID else { continue }
            messages.append(
                message(
                    enabled ? .emailEnabled : .emailDisabled, group: group, subject: identity.subject, at: now, email: relay))
        }
        try await provider.store.setRelayForwarding(identity, enabled: enabled, notifying: messages)
    }

    /// Deletes the Apple ID: everything revoked, relay forwarding off, the account-deletion event sent
    /// to every app group the user authorized, and the Apple ID can no longer sign in.
    public func deleteAccount(accountID: String) async throws {
        let now = provider.clock.now()
        let identities = try await provider.store.teamIdentities(accountID: accountID)
        var messages: [OutboxMessage] = []
        for consent in try await provider.store.consents(accountID: accountID) {
            guard let group = try await provider.store.appGroup(consent.groupID),
                let identity = identities.first(where: { $0.teamID == group.teamID })
            else { continue }
            let spelling = try await provider.store.client(group.primaryAppID)?.quirks.deletionEvent
            messages.append(
                message(spelling ?? provider.configuration.accountDeletionEvent, group: group, subject: identity.subject, at: now))
        }
        try await provider.store.deleteAccount(id: accountID, at: now, notifying: messages)
        provider.credentialSignal.signal()
    }

    /// A message for the group's primary App ID (`aud`), with Apple's milliseconds `event_time` and a
    /// string `is_private_email`, as captured.
    package func message(
        _ type: NotificationEventType, group: AppGroup, subject: Subject, at now: Date, email: String? = nil
    ) -> OutboxMessage {
        message(type, groupID: group.primaryAppID, subject: subject, at: now, email: email)
    }

    /// ``message(_:group:subject:at:email:)`` for the group's primary App ID.
    package func message(
        _ type: NotificationEventType, groupID: ClientID, subject: Subject, at now: Date, email: String? = nil
    ) -> OutboxMessage {
        let event = NotificationEvent(
            type: type, subject: subject.rawValue, eventTime: Int64((now.timeIntervalSince1970 * 1000).rounded()), email: email,
            isPrivateEmail: email.map { _ in BooleanClaim(true, style: .string) })
        return OutboxMessage(
            id: Base64URL.encode(provider.random.bytes(count: 16)), groupID: groupID, audience: groupID, event: event,
            createdAt: now)
    }
}

public enum LifecycleError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownAppGroup(ClientID)
    case noRelayAddress(TeamID)
    case unknownAccount(String)

    public var description: String {
        switch self {
        case .unknownAppGroup(let id): "no app group \(id)"
        case .noRelayAddress(let team): "no relay address for team \(team)"
        case .unknownAccount(let id): "no Apple ID \(id)"
        }
    }
}

extension AppleIDProvider {
    /// The account-lifecycle actions of Apple ID users.
    public var lifecycle: AccountLifecycle { AccountLifecycle(provider: self) }
}
