import AppleIDProtocol
import AppleIDProvider
import Foundation

/// The console's Keys: a Sign in with Apple key per primary App ID, downloaded once, revocable.
extension AppleIDProvider {
    /// Creates a key whose `.p8` the console offers for one download (``downloadKey(_:teamID:)``).
    public func createKey(teamID: TeamID, primaryAppID: ClientID, name: String) async throws -> DeveloperKey {
        let keyName = try await reviewKey(teamID: teamID, primaryAppID: primaryAppID, name: name)
        let (key, pem): (DeveloperKey, String)
        do {
            (key, pem) = try await registerKey(teamID: teamID, primaryAppID: primaryAppID, name: keyName)
        } catch RegistrationError.unknownAppGroup {
            // Another team's App ID reads as unknown: the console says nothing of other teams' groups.
            throw ConsoleError.notFound("Your team has no primary App ID \(primaryAppID).")
        } catch RegistrationError.unknownTeam {
            throw ConsoleError.notFound("No team \(teamID).")
        }
        try await keyDownloadStore.savePendingDownload(keyID: key.id, privateKeyPEM: pem)
        return key
    }

    /// Checks a new key's name and primary App ID, as Register would, and answers the name as stored.
    public func reviewKey(teamID: TeamID, primaryAppID: ClientID, name: String) async throws -> String {
        let keyName = try Self.keyName(name)
        guard let group = try await store.appGroup(primaryAppID), group.teamID == teamID else {
            // Another team's App ID reads as unknown: the console says nothing of other teams' groups.
            throw ConsoleError.notFound("Your team has no primary App ID \(primaryAppID).")
        }
        return keyName
    }

    /// Renames a key; its primary App ID and its private half never change.
    public func renameKey(_ id: KeyID, teamID: TeamID, name: String) async throws -> DeveloperKey {
        var key = try await developerKey(id, teamID: teamID)
        key.name = try Self.keyName(name)
        try await store.save(key)
        return key
    }

    /// A Key Name as Apple's portal takes it: required, without the special characters it refuses.
    static func keyName(_ name: String) throws -> String {
        let value = name.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { throw ConsoleError.invalid("Enter a key name.") }
        guard value.count <= 64, !value.contains(where: { "@&*'\"<>".contains($0) || $0.isNewline }) else {
            throw ConsoleError.invalid("A key name has at most 64 characters and none of @ & * ' \" < >.")
        }
        return value
    }

    /// The key's `.p8` contents, the first time only: Apple keeps no copy of the private key once it
    /// has been downloaded, and neither do we.
    public func downloadKey(_ id: KeyID, teamID: TeamID) async throws -> String {
        _ = try await developerKey(id, teamID: teamID)
        guard let pem = try await keyDownloadStore.takePendingDownload(keyID: id) else {
            throw ConsoleError.refused("The key \(id) was already downloaded. A key can be downloaded only once; revoke it and create a new one.")
        }
        logger.notice("developer key downloaded", metadata: ["kid": "\(id)", "team_id": "\(teamID)"])
        return pem
    }

    /// Whether the key's `.p8` can still be downloaded.
    public func canDownloadKey(_ id: KeyID) async throws -> Bool { try await keyDownloadStore.hasPendingDownload(keyID: id) }

    /// Revokes a key: from now on client secrets it signed are refused, with the reason in the log and
    /// on the Requests page. A key not yet downloaded can no longer be.
    public func revokeKey(_ id: KeyID, teamID: TeamID?) async throws -> DeveloperKey {
        var key = try await developerKey(id, teamID: teamID)
        guard key.revokedAt == nil else { return key }
        key.revokedAt = clock.now()
        try await store.save(key)
        _ = try await keyDownloadStore.takePendingDownload(keyID: id)
        forgetVerifiedSecrets(keyID: id)
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
