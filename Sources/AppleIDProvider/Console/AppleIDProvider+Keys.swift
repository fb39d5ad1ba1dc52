import AppleIDProtocol
import Foundation

/// The console's Keys: a Sign in with Apple key per primary App ID, downloaded once, revocable.
extension AppleIDProvider {
    /// Creates a key whose `.p8` the console offers for one download (``downloadKey(_:teamID:)``).
    public func createKey(teamID: TeamID, primaryAppID: ClientID) async throws -> DeveloperKey {
        let (key, pem): (DeveloperKey, String)
        do {
            (key, pem) = try await registerKey(teamID: teamID, primaryAppID: primaryAppID)
        } catch RegistrationError.unknownAppGroup {
            // Another team's App ID reads as unknown: the console says nothing of other teams' groups.
            throw ConsoleError.notFound("Your team has no primary App ID \(primaryAppID).")
        } catch RegistrationError.unknownTeam {
            throw ConsoleError.notFound("No team \(teamID).")
        }
        try await store.savePendingDownload(keyID: key.id, privateKeyPEM: pem)
        return key
    }

    /// The key's `.p8` contents, the first time only: Apple keeps no copy of the private key once it
    /// has been downloaded, and neither do we.
    public func downloadKey(_ id: KeyID, teamID: TeamID) async throws -> String {
        _ = try await developerKey(id, teamID: teamID)
        guard let pem = try await store.takePendingDownload(keyID: id) else {
            throw ConsoleError.refused("The key \(id) was already downloaded. A key can be downloaded only once; revoke it and create a new one.")
        }
        logger.notice("developer key downloaded", metadata: ["kid": "\(id)", "team_id": "\(teamID)"])
        return pem
    }

    /// Whether the key's `.p8` can still be downloaded.
    public func canDownloadKey(_ id: KeyID) async throws -> Bool { try await store.hasPendingDownload(keyID: id) }

    /// Revokes a key: from now on client secrets it signed are refused, with the reason in the log and
    /// on the Requests page. A key not yet downloaded can no longer be.
    public func revokeKey(_ id: KeyID, teamID: TeamID?) async throws -> DeveloperKey {
        var key = try await developerKey(id, teamID: teamID)
        guard key.revokedAt == nil else { return key }
        key.revokedAt = clock.now()
        try await store.save(key)
        _ = try await store.takePendingDownload(keyID: id)
        authenticator.cache.forget(keyID: id)
        logger.notice("developer key revoked", metadata: ["kid": "\(id)", "team_id": "\(key.teamID)"])
        return key
    }

    /// The team's keys, for the console's list.
    public func developerKeys(teamID: TeamID) async throws -> [DeveloperKey] { try await store.developerKeys(teamID: teamID) }

    private func developerKey(_ id: KeyID, teamID: TeamID?) async throws -> DeveloperKey {
        guard let key = try await store.developerKey(id), teamID == nil || key.teamID == teamID else {
            throw ConsoleError.notFound("There is no key \(id) in this team.")
        }
        return key
    }
}
