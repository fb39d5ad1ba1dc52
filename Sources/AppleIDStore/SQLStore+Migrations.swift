import SQLKit

/// One step of the schema. Versions are applied in ascending order and recorded in
/// `schema_migrations`; every statement is idempotent (`IF NOT EXISTS`), so a migration interrupted
/// before its version was recorded is simply run again.
struct SchemaMigration: Sendable {
    let version: Int
    let statements: [String]
    /// Run after `statements` on SQLite only, for what the portable subset cannot say (a trigger).
    var sqliteStatements: [String] = []

    /// The statements to run on a database of `dialect` (SQLKit's dialect name).
    func statements(for dialect: String) -> [String] { dialect == "sqlite" ? statements + sqliteStatements : statements }
}

extension SQLStore {
    /// The schema, oldest first. Append new versions; never edit an applied one. Each version runs in
    /// one transaction with its version record, so statements that cannot say `IF NOT EXISTS`
    /// (`ALTER TABLE … ADD COLUMN`) are applied exactly once.
    ///
    /// Column types are the portable subset of SQLite and PostgreSQL: `TEXT`, `INTEGER`, `BOOLEAN`,
    /// `DOUBLE PRECISION` (dates, seconds since 1970). JSON values are `TEXT`.
    static let migrations: [SchemaMigration] =
        (coreMigrations + consoleMigrations + flowRecordMigrations + organizationMigrations + relayMailMigrations + keychainMigrations
        + issuingMigrations + identifierRemovalMigrations + relayMessageBodyMigrations
        + relayTeamUsageMigrations)
        .sorted {
            $0.version < $1.version
        }

    /// Versions 1 to 6 and the other ranges; the console's (7 to 9) are in `SQLStore+ConsoleMigrations.swift`.
    static let coreMigrations: [SchemaMigration] = [
        SchemaMigration(
            version: 1,
            statements: [
                """
                CREATE TABLE IF NOT EXISTS teams (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS app_groups (
                    primary_app_id TEXT PRIMARY KEY,
                    team_id TEXT NOT NULL,
                    display_name TEXT NOT NULL,
                    notification_endpoint TEXT
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS clients (
                    id TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    team_id TEXT NOT NULL,
                    group_id TEXT NOT NULL,
                    return_urls TEXT NOT NULL,
                    quirks TEXT NOT NULL
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS developer_keys (
                    id TEXT PRIMARY KEY,
                    team_id TEXT NOT NULL,
                    primary_app_id TEXT NOT NULL,
                    public_key_pem TEXT NOT NULL
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS accounts (
                    id TEXT PRIMARY KEY,
                    apple_id TEXT NOT NULL,
                    password_hash TEXT NOT NULL,
                    first_name TEXT NOT NULL,
                    last_name TEXT NOT NULL,
                    email TEXT NOT NULL,
                    real_user_status INTEGER NOT NULL,
                    totp_secret TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    deleted_at DOUBLE PRECISION
                )
                """,
                "CREATE UNIQUE INDEX IF NOT EXISTS accounts_apple_id ON accounts (apple_id)",
                "CREATE INDEX IF NOT EXISTS accounts_created_at ON accounts (created_at, apple_id)",
                """
                CREATE TABLE IF NOT EXISTS team_identities (
                    account_id TEXT NOT NULL,
                    team_id TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    relay_address TEXT,
                    relay_forwarding_enabled BOOLEAN NOT NULL,
                    PRIMARY KEY (account_id, team_id)
                )
                """,
                "CREATE UNIQUE INDEX IF NOT EXISTS team_identities_subject ON team_identities (subject)",
                """
                CREATE TABLE IF NOT EXISTS consents (
                    account_id TEXT NOT NULL,
                    group_id TEXT NOT NULL,
                    granted_at DOUBLE PRECISION NOT NULL,
                    scopes TEXT NOT NULL,
                    email TEXT,
                    is_private_email BOOLEAN NOT NULL,
                    PRIMARY KEY (account_id, group_id)
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS grants (
                    id TEXT PRIMARY KEY,
                    account_id TEXT NOT NULL,
                    team_id TEXT NOT NULL,
                    group_id TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    scopes TEXT NOT NULL,
                    email TEXT,
                    is_private_email BOOLEAN NOT NULL,
                    real_user_status INTEGER NOT NULL,
                    auth_time DOUBLE PRECISION NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    revoked_at DOUBLE PRECISION
                )
                """,
                "CREATE INDEX IF NOT EXISTS grants_account_group ON grants (account_id, group_id)",
                """
                CREATE TABLE IF NOT EXISTS authorization_codes (
                    code_hash TEXT PRIMARY KEY,
                    grant_id TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    redirect_uri TEXT,
                    code_challenge TEXT,
                    nonce TEXT,
                    expires_at DOUBLE PRECISION NOT NULL,
                    consumed_at DOUBLE PRECISION
                )
                """,
                "CREATE INDEX IF NOT EXISTS authorization_codes_grant ON authorization_codes (grant_id)",
                """
                CREATE TABLE IF NOT EXISTS tokens (
                    token_hash TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    grant_id TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION
                )
                """,
                "CREATE INDEX IF NOT EXISTS tokens_grant ON tokens (grant_id)",
                """
                CREATE TABLE IF NOT EXISTS interactions (
                    id TEXT PRIMARY KEY,
                    request TEXT NOT NULL,
                    browser_binding_hash TEXT NOT NULL,
                    csrf_token TEXT NOT NULL,
                    stage TEXT NOT NULL,
                    account_id TEXT,
                    auth_time DOUBLE PRECISION,
                    failed_attempts INTEGER NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS browser_sessions (
                    id_hash TEXT PRIMARY KEY,
                    account_id TEXT NOT NULL,
                    auth_time DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS signing_keys (
                    id TEXT PRIMARY KEY,
                    private_key_pem TEXT NOT NULL,
                    state TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    activated_at DOUBLE PRECISION,
                    retired_at DOUBLE PRECISION
                )
                """,
            ]),
        SchemaMigration(
            version: 2,
            statements: [
                """
                CREATE TABLE IF NOT EXISTS notification_outbox (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL,
                    audience TEXT NOT NULL,
                    event TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    next_attempt_at DOUBLE PRECISION NOT NULL,
                    attempts INTEGER NOT NULL,
                    delivered_at DOUBLE PRECISION,
                    abandoned_at DOUBLE PRECISION
                )
                """,
                "CREATE INDEX IF NOT EXISTS notification_outbox_due ON notification_outbox (delivered_at, abandoned_at, next_attempt_at)",
                """
                CREATE TABLE IF NOT EXISTS delivery_attempts (
                    message_id TEXT NOT NULL,
                    attempted_at DOUBLE PRECISION NOT NULL,
                    status INTEGER,
                    latency_ms INTEGER NOT NULL,
                    error TEXT,
                    endpoint TEXT NOT NULL
                )
                """,
                "CREATE INDEX IF NOT EXISTS delivery_attempts_message ON delivery_attempts (message_id, attempted_at)",
            ]),
        SchemaMigration(
            version: 3,
            statements: [
                "ALTER TABLE accounts ADD COLUMN two_factor_enabled BOOLEAN NOT NULL DEFAULT TRUE"
            ]),
        SchemaMigration(
            version: 4,
            statements: [
                """
                CREATE TABLE IF NOT EXISTS app_transfers (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL,
                    from_team_id TEXT NOT NULL,
                    to_team_id TEXT NOT NULL,
                    transferred_at DOUBLE PRECISION NOT NULL,
                    window_ends_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX IF NOT EXISTS app_transfers_group ON app_transfers (group_id, transferred_at)",
                """
                CREATE TABLE IF NOT EXISTS transfer_subjects (
                    account_id TEXT NOT NULL,
                    from_team_id TEXT NOT NULL,
                    to_team_id TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    PRIMARY KEY (account_id, from_team_id, to_team_id),
                    UNIQUE (to_team_id, subject)
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS migration_tokens (
                    token_hash TEXT PRIMARY KEY,
                    team_id TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL
                )
                """,
                "ALTER TABLE grants ADD COLUMN transfer_subject TEXT",
                "ALTER TABLE grants ADD COLUMN transfer_window_ends_at DOUBLE PRECISION",
                "CREATE INDEX IF NOT EXISTS clients_group ON clients (group_id)",
                "CREATE INDEX IF NOT EXISTS consents_group ON consents (group_id)",
            ]),
        SchemaMigration(
            version: 5,
            statements: [
                "ALTER TABLE accounts ADD COLUMN additional_emails TEXT NOT NULL DEFAULT '[]'"
            ]),
        SchemaMigration(
            version: 6,
            statements: [
                // Failed sign-in attempts per Apple ID and the last accepted TOTP step
                // (SignInAttemptStore); apart from `accounts`, so that saving an account never
                // overwrites a count.
                """
                CREATE TABLE IF NOT EXISTS sign_in_attempts (
                    account_id TEXT PRIMARY KEY,
                    attempts INTEGER NOT NULL,
                    locked_until DOUBLE PRECISION,
                    last_second_factor_step BIGINT
                )
                """
            ]),
        SchemaMigration(
            version: 13,
            statements: [
                // One active and one next signing key at most: instances that start or rotate at the
                // same moment cannot both add one (SigningKeyRotationStore).
                "CREATE UNIQUE INDEX IF NOT EXISTS signing_keys_one_per_state ON signing_keys (state) WHERE state <> 'retired'",
                // Delivery leases (OutboxLeaseStore): which instance delivers a message, until when.
                "ALTER TABLE notification_outbox ADD COLUMN leased_by TEXT",
                "ALTER TABLE notification_outbox ADD COLUMN lease_expires_at DOUBLE PRECISION",
            ]),
        SchemaMigration(
            version: 14,
            statements: [
                // The hourly purge (ExpiredRecordStore) finds expired rows by index, not by reading
                // every row: with millions of refresh tokens (no expiry, left out of the index) a scan
                // of `tokens` took the write lock for seconds.
                "CREATE INDEX IF NOT EXISTS tokens_expiry ON tokens (expires_at) WHERE expires_at IS NOT NULL",
                "CREATE INDEX IF NOT EXISTS authorization_codes_expiry ON authorization_codes (expires_at)",
                "CREATE INDEX IF NOT EXISTS interactions_expiry ON interactions (expires_at)",
                "CREATE INDEX IF NOT EXISTS browser_sessions_expiry ON browser_sessions (expires_at)",
                "CREATE INDEX IF NOT EXISTS migration_tokens_expiry ON migration_tokens (expires_at)",
            ]),
        SchemaMigration(
            version: 24,
            statements: [
                // Which pages a browser session opens (BrowserSession.Purpose): the account pages have
                // their own sign-in. Sessions from before were the sign-in pages' (they no longer open
                // /account; its user signs in again).
                "ALTER TABLE browser_sessions ADD COLUMN purpose TEXT NOT NULL DEFAULT 'sign-in'"
            ]),
    ]

    /// Brings the schema up to the newest version. Safe to call on every start, and from several
    /// processes at once (each statement is idempotent, the version insert ignores duplicates).
    public func migrate() async throws {
        try await db.raw("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)").run()
        let applied = Set(
            try await db.select().column("version").from("schema_migrations")
                .all()
                .map { try $0.decode(column: "version", as: Int.self) }
        )
        var appliedAny = false
        for migration in Self.migrations.sorted(by: { $0.version < $1.version }) where !applied.contains(migration.version) {
            appliedAny = true
            db.logger.info("Applying schema migration", metadata: ["version": "\(migration.version)"])
            do {
                try await transaction { db in
                    for statement in migration.statements(for: db.dialect.name) {
                        try await db.raw(SQLQueryString(statement)).run()
                    }
                    try await db.insert(into: "schema_migrations")
                        .columns("version")
                        .values(SQLBind(migration.version))
                        .ignoringConflicts(with: "version")
                        .run()
                }
            } catch {
                // Another process may have applied this version since we looked.
                guard try await appliedMigrations().contains(migration.version) else { throw error }
            }
        }
        // The seeded state's copies have the tables' old shape: the next start records it again.
        if appliedAny { try await dropSeedSnapshot() }
    }

    /// The versions recorded in `schema_migrations`, ascending (for tests and diagnostics).
    public func appliedMigrations() async throws -> [Int] {
        try await db.select().column("version").from("schema_migrations")
            .orderBy("version")
            .all()
            .map { try $0.decode(column: "version", as: Int.self) }
    }
}
