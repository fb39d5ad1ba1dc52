import AppleIDProtocol
import AppleIDProvider
import Foundation

/// Editing and removing identifiers as Apple's portal allows: an App ID's Bundle ID is fixed once
/// registered (only its description changes here), and an App ID that others depend on cannot go.
extension AppleIDProvider {
    /// Changes an App ID's description, and its associated `webcredentials` domains when given; a
    /// primary App ID's consent name follows the description. The Bundle ID is the App ID itself and
    /// cannot be edited.
    public func editAppID(
        _ id: ClientID, teamID: TeamID, description: String, webCredentialsDomains: [String]? = nil
    ) async throws -> RegisteredClient {
        guard var client = try await store.client(id, teamID: teamID), client.kind == .app else {
            throw ConsoleError.notFound("There is no App ID \(id) in this team.")
        }
        client.description = try Self.describedAs(description)
        if let webCredentialsDomains { client.webCredentialsDomains = try Self.checkedWebCredentialsDomains(webCredentialsDomains) }
        if client.groupID == client.id, var group = try await store.appGroup(id) {
            group.displayName = client.description
            try await store.save(group)
        }
        try await store.save(client)
        registryDidChange()
        return client
    }

    /// Removes an App ID or a Services ID: it can no longer sign anyone in, and this cannot be undone.
    /// A primary App ID goes only when nothing depends on it: no identifier grouped under it (their
    /// users' consents are the group's), and no key of it that still signs client secrets.
    ///
    /// Consents and grants belong to the registration, not to the string: the grants issued to the
    /// identifier are revoked, and a primary App ID takes its group's consents and grants along (each
    /// user's app is told `consent-revoked`). The identifier is kept as removed, so that another team
    /// cannot register it and meet its users as returning ones (security review 3, finding 2).
    public func removeIdentifier(_ id: ClientID, teamID: TeamID) async throws {
        guard let client = try await store.client(id, teamID: teamID) else {
            throw ConsoleError.notFound("There is no identifier \(id) in this team.")
        }
        if client.kind == .app, client.groupID == client.id {
            let members = try await store.clients(teamID: teamID).filter { $0.groupID == id && $0.id != id }.map(\.id.rawValue)
            if !members.isEmpty {
                let names = members.joined(separator: ", ")
                let (verb, pronoun) = members.count == 1 ? ("is", "it") : ("are", "them")
                throw ConsoleError.refused(
                    "\(id) cannot be removed: \(names) \(verb) grouped under it. Remove \(pronoun) or group \(pronoun) with another primary App ID first."
                )
            }
            let keys = try await store.developerKeys(teamID: teamID).filter { $0.primaryAppID == id && $0.revokedAt == nil }
            if let key = keys.first {
                throw ConsoleError.refused("\(id) cannot be removed: revoke its key \(key.id) first.")
            }
        }
        let now = clock.now()
        let group = client.kind == .app && client.groupID == client.id ? try await store.appGroup(id) : nil
        var messages: [OutboxMessage] = []
        if let group {
            let lifecycle = self.lifecycle
            messages = try await store.consentingSubjects(groupID: group.primaryAppID, teamID: teamID).map {
                lifecycle.message(.consentRevoked, group: group, subject: $0, at: now)
            }
        }
        let removed = RemovedIdentifier(id: id, teamID: teamID, removedAt: now, notificationEndpoint: group?.notificationEndpoint)
        try await store.remove(IdentifierRemoval(identifier: removed, groupID: group?.primaryAppID, messages: messages))
        credentialSignal.signal()
        registryDidChange()
        logger.notice("identifier removed", metadata: ["client_id": "\(id)", "team_id": "\(teamID)"])
    }
}
