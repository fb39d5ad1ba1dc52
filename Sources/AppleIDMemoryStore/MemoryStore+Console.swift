import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation

extension MemoryStore {
    /// The console's part of the store's state: under its one lock, in its seed snapshot.
    struct ConsoleState: MemoryStoreAttachment {
        var pendingDownloads: [KeyID: String] = [:]
        var developers: [String: DeveloperAccount] = [:]
        var sessions: [String: ConsoleSession] = [:]
        var invitations: [String: TeamInvitation] = [:]
        var transferOffers: [ClientID: TransferOffer] = [:]
    }
}

extension MemoryStore: KeyDownloadStore {
    public func savePendingDownload(keyID: KeyID, privateKeyPEM: String) async throws {
        try withAttached(ConsoleState.self) { $0.pendingDownloads[keyID] = privateKeyPEM }
    }

    public func takePendingDownload(keyID: KeyID) async throws -> String? {
        try withAttached(ConsoleState.self) { $0.pendingDownloads.removeValue(forKey: keyID) }
    }

    public func hasPendingDownload(keyID: KeyID) async throws -> Bool {
        try withAttached(ConsoleState.self) { $0.pendingDownloads[keyID] != nil }
    }
}

extension MemoryStore: DeveloperAccountStore, ConsoleSessionStore {
    public func developers(teamID: TeamID) async throws -> [DeveloperAccount] {
        try withAttached(ConsoleState.self) { $0.developers.values.filter { $0.teamIDs.contains(teamID) } }
    }

    public func developer(id: String) async throws -> DeveloperAccount? { try withAttached(ConsoleState.self) { $0.developers[id] } }

    public func developer(email: String) async throws -> DeveloperAccount? {
        let email = email.lowercased()
        return try withAttached(ConsoleState.self) { $0.developers.values.first { $0.email == email } }
    }

    public func save(_ developer: DeveloperAccount) async throws {
        try withAttached(ConsoleState.self) { console in
            if console.developers.values.contains(where: { $0.email == developer.email && $0.id != developer.id }) {
                throw StoreError.conflict("developer \(developer.email) already exists")
            }
            console.developers[developer.id] = developer
        }
    }

    public func save(_ session: ConsoleSession) async throws { try withAttached(ConsoleState.self) { $0.sessions[session.idHash] = session } }

    public func consoleSession(idHash: String) async throws -> ConsoleSession? { try withAttached(ConsoleState.self) { $0.sessions[idHash] } }

    public func deleteConsoleSession(idHash: String) async throws { try withAttached(ConsoleState.self) { $0.sessions[idHash] = nil } }

    public func deleteConsoleSessions(developerID: String, except idHash: String?) async throws -> Int {
        try withAttached(ConsoleState.self) { console in
            let ended = console.sessions.filter { $0.value.developerID == developerID && $0.key != idHash }.keys
            for key in ended { console.sessions[key] = nil }
            return ended.count
        }
    }

    public func purgeConsoleSessions(expiredBefore date: Date) async throws -> Int {
        try withAttached(ConsoleState.self) { console in
            let expired = console.sessions.filter { $0.value.expiresAt < date }.keys
            for key in expired { console.sessions[key] = nil }
            return expired.count
        }
    }
}
