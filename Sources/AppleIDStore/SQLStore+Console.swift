import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: TeamRegistryStore, TeamActivityStore, EmailSourceStore, KeyDownloadStore, DeveloperAccountStore, ConsoleSessionStore {
    public func appGroups(teamID: TeamID) async throws -> [AppGroup] {
        try await db.select().column("*").from(AppGroupRow.table).where("team_id", .equal, teamID.rawValue)
            .orderBy("primary_app_id").all(decoding: AppGroupRow.self).map { $0.group() }
    }

    public func clients(teamID: TeamID) async throws -> [RegisteredClient] {
        try await db.select().column("*").from(ClientRow.table).where("team_id", .equal, teamID.rawValue)
            .orderBy("id").all(decoding: ClientRow.self).map { try $0.client() }
    }

    public func client(_ id: ClientID, teamID: TeamID) async throws -> RegisteredClient? {
        try await db.select().column("*").from(ClientRow.table).where("id", .equal, id.rawValue).where("team_id", .equal, teamID.rawValue)
            .first(decoding: ClientRow.self)?.client()
    }

    public func developerKeys(teamID: TeamID) async throws -> [DeveloperKey] {
        try await db.select().column("*").from(DeveloperKeyRow.table).where("team_id", .equal, teamID.rawValue)
            .orderBy("id").all(decoding: DeveloperKeyRow.self).map { $0.key() }
    }

    public func transfers(involving teamID: TeamID) async throws -> [AppTransfer] {
        try await db.select().column("*").from(TransferRow.table)
            .where("from_team_id", .equal, teamID.rawValue).orWhere("to_team_id", .equal, teamID.rawValue)
            .orderBy("transferred_at", .descending)
            .all(decoding: TransferRow.self).map { $0.transfer() }
    }

    public func authorizationCount(clientID: ClientID) async throws -> Int {
        try await db.raw(
            """
            SELECT COUNT(DISTINCT account_id) AS users FROM grants
            WHERE client_id = \(bind: clientID.rawValue) AND revoked_at IS NULL
            """
        ).first()?.decode(column: "users", as: Int.self) ?? 0
    }

    /// The private half is sealed like the signing keys when the store has a sealer.
    public func savePendingDownload(keyID: KeyID, privateKeyPEM: String) async throws {
        let stored = try sealer?.seal(privateKeyPEM, boundTo: keyID.rawValue) ?? privateKeyPEM
        try await upsert(PendingDownloadRow(keyID: keyID.rawValue, privateKeyPEM: stored), into: PendingDownloadRow.table, key: ["key_id"])
    }

    /// One `DELETE … RETURNING`: of two concurrent downloads, one gets the key.
    public func takePendingDownload(keyID: KeyID) async throws -> String? {
        guard
            let row = try await db.raw(
                "DELETE FROM developer_key_downloads WHERE key_id = \(bind: keyID.rawValue) RETURNING private_key_pem"
            ).first()
        else { return nil }
        let stored = try row.decode(column: "private_key_pem", as: String.self)
        return try sealer?.open(stored, boundTo: keyID.rawValue) ?? stored
    }

    public func hasPendingDownload(keyID: KeyID) async throws -> Bool {
        try await db.select().column("key_id").from(PendingDownloadRow.table).where("key_id", .equal, keyID.rawValue).first() != nil
    }

    public func emailSources(teamID: TeamID) async throws -> [EmailSource] {
        try await db.select().column("*").from(EmailSourceRow.table).where("team_id", .equal, teamID.rawValue)
            .orderBy("added_at").orderBy("value").all(decoding: EmailSourceRow.self).map { try $0.source() }
    }

    /// Counts and inserts in one transaction, so two concurrent additions cannot pass the limit together.
    /// SQLite has one writer, so its transactions already take turns. PostgreSQL's read-committed
    /// transactions would both count before either inserts, so each first takes a lock on the team's
    /// e-mail sources (a transaction-scoped advisory lock, which needs no row to exist): a second
    /// addition waits for the first to commit, then counts what it added.
    public func add(_ sources: [EmailSource], limit: Int) async throws -> Bool {
        guard let teamID = sources.first?.teamID else { return true }
        return try await transaction { db in
            if db.dialect.name == "postgresql" {
                try await db.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: "email_sources:" + teamID.rawValue)))").run()
            }
            let existing = try await db.select().column("value").from(EmailSourceRow.table).where("team_id", .equal, teamID.rawValue)
                .all().map { try $0.decode(column: "value", as: String.self) }
            let new = sources.filter { !existing.contains($0.value) }
            guard existing.count + new.count <= limit else { return false }
            for source in new {
                try await db.insert(into: EmailSourceRow.table).model(EmailSourceRow(source), with: Self.rowEncoder).run()
            }
            return true
        }
    }

    public func deleteEmailSource(teamID: TeamID, value: String) async throws {
        try await db.delete(from: EmailSourceRow.table).where("team_id", .equal, teamID.rawValue).where("value", .equal, value).run()
    }

    public func setCheck(_ check: EmailSource.Check, checkedAt: Date, teamID: TeamID, value: String) async throws {
        try await db.update(EmailSourceRow.table)
            .set("check_status", to: check.rawValue)
            .set("checked_at", to: checkedAt.sqlSeconds)
            .where("team_id", .equal, teamID.rawValue).where("value", .equal, value)
            .run()
    }

    public func setDKIMKey(_ key: String?, teamID: TeamID, value: String) async throws -> Bool {
        try await transaction { db in
            guard
                try await db.select().column("value").from(EmailSourceRow.table).where("team_id", .equal, teamID.rawValue)
                    .where("value", .equal, value).first() != nil
            else { return false }
            try await db.update(EmailSourceRow.table).set("dkim_public_key", to: key)
                .where("team_id", .equal, teamID.rawValue).where("value", .equal, value).run()
            return true
        }
    }

    /// The team IDs are a JSON array in one column: a LIKE finds the candidates, the decoded list decides.
    public func developers(teamID: TeamID) async throws -> [DeveloperAccount] {
        try await db.select().column("*").from(DeveloperRow.table)
            .where("team_ids", .like, "%\"\(teamID.rawValue)\"%")
            .all(decoding: DeveloperRow.self)
            .map { try $0.developer() }
            .filter { $0.teamIDs.contains(teamID) }
    }

    public func developer(id: String) async throws -> DeveloperAccount? {
        try await row(DeveloperRow.self, from: DeveloperRow.table, where: "id", equals: id)?.developer()
    }

    public func developer(email: String) async throws -> DeveloperAccount? {
        try await row(DeveloperRow.self, from: DeveloperRow.table, where: "email", equals: email.lowercased())?.developer()
    }

    public func save(_ developer: DeveloperAccount) async throws {
        do {
            try await upsert(try DeveloperRow(developer), into: DeveloperRow.table, key: ["id"])
        } catch {
            // As for Apple IDs: look for the other row instead of parsing a driver's constraint error.
            let other = try await db.select().column("id").from(DeveloperRow.table)
                .where("email", .equal, developer.email).where("id", .notEqual, developer.id).first()
            if other != nil { throw StoreError.conflict("developer \(developer.email) already exists") }
            throw error
        }
    }

    public func save(_ session: ConsoleSession) async throws {
        try await upsert(ConsoleSessionRow(session), into: ConsoleSessionRow.table, key: ["id_hash"])
    }

    public func consoleSession(idHash: String) async throws -> ConsoleSession? {
        try await row(ConsoleSessionRow.self, from: ConsoleSessionRow.table, where: "id_hash", equals: idHash)?.session()
    }

    public func deleteConsoleSession(idHash: String) async throws {
        try await delete(from: ConsoleSessionRow.table, where: "id_hash", equals: idHash)
    }

    public func purgeConsoleSessions(expiredBefore date: Date) async throws -> Int {
        try await db.raw("DELETE FROM console_sessions WHERE expires_at < \(bind: date.sqlSeconds) RETURNING id_hash").all().count
    }
}
