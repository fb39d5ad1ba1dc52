/// The schema of ``FlowRecordStore`` (version 16). Kept apart from the core list: versions are applied
/// by number, whatever list holds them, and a lower version added later (15) is still applied to a
/// database that already has 16 (`migrate()` runs every version it has not recorded).
extension SQLStore {
    static let flowRecordMigrations: [SchemaMigration] = [
        SchemaMigration(
            version: 16,
            statements: [
                // Browser flows that span requests, so any instance can continue them: the playground's
                // started sign-ins and runs, account sign-ins waiting for the code.
                """
                CREATE TABLE IF NOT EXISTS flow_records (
                    kind TEXT NOT NULL,
                    key_hash TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (kind, key_hash)
                )
                """,
                "CREATE INDEX IF NOT EXISTS flow_records_expiry ON flow_records (expires_at)",
            ])
    ]
}
