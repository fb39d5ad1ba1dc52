/// The developer console's schema (versions 7 to 9, 17, 18, 20, 21, 29 and 35 are the console's).
extension SQLStore {
    static let consoleMigrations: [SchemaMigration] = [
        SchemaMigration(
            version: 7,
            statements: [
                "ALTER TABLE teams ADD COLUMN kind TEXT NOT NULL DEFAULT 'organization'",
                "ALTER TABLE clients ADD COLUMN description TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE clients ADD COLUMN domains TEXT NOT NULL DEFAULT '[]'",
                "ALTER TABLE developer_keys ADD COLUMN revoked_at DOUBLE PRECISION",
                "CREATE INDEX IF NOT EXISTS clients_team ON clients (team_id)",
                "CREATE INDEX IF NOT EXISTS app_groups_team ON app_groups (team_id)",
                "CREATE INDEX IF NOT EXISTS developer_keys_team ON developer_keys (team_id)",
                // A new key's private half, sealed, until its one download.
                """
                CREATE TABLE IF NOT EXISTS developer_key_downloads (
                    key_id TEXT PRIMARY KEY,
                    private_key_pem TEXT NOT NULL
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS email_sources (
                    team_id TEXT NOT NULL,
                    value TEXT NOT NULL,
                    added_at DOUBLE PRECISION NOT NULL,
                    check_status TEXT NOT NULL,
                    PRIMARY KEY (team_id, value)
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS developers (
                    id TEXT PRIMARY KEY,
                    email TEXT NOT NULL,
                    name TEXT NOT NULL,
                    password_hash TEXT NOT NULL,
                    team_ids TEXT NOT NULL
                )
                """,
                "CREATE UNIQUE INDEX IF NOT EXISTS developers_email ON developers (email)",
                """
                CREATE TABLE IF NOT EXISTS console_sessions (
                    id_hash TEXT PRIMARY KEY,
                    developer_id TEXT NOT NULL,
                    team_id TEXT NOT NULL,
                    csrf_token TEXT NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS request_log (
                    id TEXT PRIMARY KEY,
                    client_id TEXT NOT NULL,
                    endpoint TEXT NOT NULL,
                    at DOUBLE PRECISION NOT NULL,
                    outcome TEXT NOT NULL,
                    reason TEXT NOT NULL
                )
                """,
                "CREATE INDEX IF NOT EXISTS request_log_client ON request_log (client_id, at)",
            ]),
        // When each e-mail source's SPF check last ran (the status itself has its column since 7).
        SchemaMigration(version: 17, statements: ["ALTER TABLE email_sources ADD COLUMN checked_at DOUBLE PRECISION"]),
        // Invitations to join a team (only the link token's hash), and a developer's sessions by developer.
        SchemaMigration(
            version: 18,
            statements: [
                """
                CREATE TABLE IF NOT EXISTS team_invitations (
                    id_hash TEXT PRIMARY KEY,
                    team_id TEXT NOT NULL,
                    email TEXT NOT NULL,
                    invited_by TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE UNIQUE INDEX IF NOT EXISTS team_invitations_team_email ON team_invitations (team_id, email)",
                "CREATE INDEX IF NOT EXISTS console_sessions_developer ON console_sessions (developer_id)",
            ]),
        SchemaMigration(
            version: 20,
            statements: [
                // Requests that did not prove their client are a bucket of their own (RequestLogEntry.isProven),
                // trimmed apart so that they cannot push out the client's own entries.
                "ALTER TABLE request_log ADD COLUMN proven INTEGER NOT NULL DEFAULT 1",
                "CREATE INDEX IF NOT EXISTS request_log_bucket ON request_log (client_id, proven, at)",
            ]),
        // An app group offered to another team, until a developer of that team accepts (one per group).
        SchemaMigration(
            version: 21,
            statements: [
                """
                CREATE TABLE IF NOT EXISTS transfer_offers (
                    group_id TEXT PRIMARY KEY,
                    from_team_id TEXT NOT NULL,
                    to_team_id TEXT NOT NULL,
                    offered_by TEXT NOT NULL,
                    offered_at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX IF NOT EXISTS transfer_offers_to ON transfer_offers (to_team_id)",
                "CREATE INDEX IF NOT EXISTS transfer_offers_from ON transfer_offers (from_team_id)",
            ]),
        // A key's Key Name, as Apple's portal asks for one (keys made before have none).
        SchemaMigration(version: 29, statements: ["ALTER TABLE developer_keys ADD COLUMN name TEXT NOT NULL DEFAULT ''"]),
        // Where a team is based (ISO 3166-1 alpha-2): Apple's country rules.
        SchemaMigration(version: 35, statements: ["ALTER TABLE teams ADD COLUMN country TEXT"]),
    ]
}
