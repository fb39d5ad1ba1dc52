import AppleIDProtocol
import AppleIDProvider
import Foundation

extension AppleIDProvider {
    /// Registers (or with `nil` removes) the server-to-server notification endpoint of a primary App ID
    /// (spec §10.1): an absolute `https` URL whose host is a name with public addresses only; in
    /// development mode `http` and local addresses as well.
    public func setNotificationEndpoint(_ url: String?, groupID: ClientID, teamID: TeamID?) async throws -> AppGroup {
        guard var group = try await store.appGroup(groupID), teamID == nil || group.teamID == teamID else {
            throw ConsoleError.notFound("\(groupID) is not a primary App ID of this team.")
        }
        let trimmed = url?.trimmingCharacters(in: .whitespaces)
        if let trimmed, !trimmed.isEmpty {
            guard let parsed = URLComponents(string: trimmed), let scheme = parsed.scheme?.lowercased(), parsed.host?.isEmpty == false,
                scheme == "https" || (scheme == "http" && configuration.developmentMode)
            else {
                throw ConsoleError.invalid(
                    configuration.developmentMode
                        ? "The endpoint must be an absolute http or https URL." : "The endpoint must be an absolute https URL.")
            }
            // Outside development mode: a host name with public addresses only. A name that does not
            // resolve yet is accepted (its DNS may come later); every delivery checks again.
            if case .refused(let reason) = await checkDestination(trimmed) { throw ConsoleError.invalid(reason) }
            group.notificationEndpoint = trimmed
        } else {
            group.notificationEndpoint = nil
        }
        try await store.save(group)
        return group
    }

    /// The group's latest notifications with their delivery attempts, newest first.
    public func deliveries(groupID: ClientID, teamID: TeamID, limit: Int = 20) async throws -> [(OutboxMessage, [DeliveryAttempt])] {
        guard let group = try await store.appGroup(groupID), group.teamID == teamID else {
            throw ConsoleError.notFound("\(groupID) is not a primary App ID of this team.")
        }
        // The messages, then all their attempts in one query: the page costs the same for 1 or 20.
        return try await store.deliveryLog(groupID: group.primaryAppID, limit: limit).map { ($0.message, $0.attempts) }
    }

    /// The team's primary App IDs, each with its endpoint and its last `limit` notifications with their
    /// attempts (newest first): the Notifications page in three statements, whatever the number of groups.
    public func notificationEndpoints(teamID: TeamID, limit: Int = 20) async throws -> [NotificationEndpointLog] {
        let groups = try await store.appGroups(teamID: teamID)
        let log = Dictionary(
            grouping: try await store.deliveryLog(groupIDs: groups.map(\.primaryAppID), limitPerGroup: limit), by: \.message.groupID)
        return groups.map { NotificationEndpointLog(group: $0, deliveries: log[$0.primaryAppID] ?? []) }
    }
}

/// A primary App ID's notification endpoint with its latest deliveries, newest first.
public struct NotificationEndpointLog: Sendable, Hashable {
    public var group: AppGroup
    public var deliveries: [DeliveryLogEntry]

    public init(group: AppGroup, deliveries: [DeliveryLogEntry]) {
        self.group = group
        self.deliveries = deliveries
    }
}
