/// The schema of ``RelayMailStore`` (version 25): the private relay's reply aliases, messages and
/// delivery records (the mailboxes and the smarthost queue); the e-mail sources' DKIM keys (27); and
/// the messages' content in chunks and the refusals' time index (19).
extension SQLStore {
    static let relayMailMigrations: [SchemaMigration] = [
        SchemaMigration(
            version: 25,
            statements: [
                // `news_at_example_com_x1@privaterelay…` → who replies reach: one alias per relay address and sender.
                """
                CREATE TABLE IF NOT EXISTS relay_reply_aliases (
                    alias TEXT PRIMARY KEY,
                    account_id TEXT NOT NULL,
                    team_id TEXT NOT NULL,
                    relay_address TEXT NOT NULL,
                    sender TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    UNIQUE (relay_address, sender)
                )
                """,
                // One row per accepted copy; `source` is the rewritten message, base64 (binary-safe
                // text in both databases).
                """
                CREATE TABLE IF NOT EXISTS relay_messages (
                    id TEXT PRIMARY KEY,
                    direction TEXT NOT NULL,
                    account_id TEXT NOT NULL,
                    team_id TEXT NOT NULL,
                    relay_address TEXT NOT NULL,
                    original_sender TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    envelope_sender TEXT NOT NULL,
                    destination TEXT NOT NULL,
                    from_header TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    received_at DOUBLE PRECISION NOT NULL,
                    size INTEGER NOT NULL,
                    source TEXT NOT NULL
                )
                """,
                "CREATE INDEX IF NOT EXISTS relay_messages_recipient ON relay_messages (recipient, received_at)",
                "CREATE INDEX IF NOT EXISTS relay_messages_destination ON relay_messages (destination, received_at)",
                "CREATE INDEX IF NOT EXISTS relay_messages_relay_address ON relay_messages (relay_address, received_at)",
                "CREATE INDEX IF NOT EXISTS relay_messages_account ON relay_messages (account_id, received_at)",
                "CREATE INDEX IF NOT EXISTS relay_messages_received ON relay_messages (received_at)",
                """
                CREATE TABLE IF NOT EXISTS relay_deliveries (
                    message_id TEXT PRIMARY KEY REFERENCES relay_messages (id),
                    state TEXT NOT NULL,
                    attempts INTEGER NOT NULL,
                    next_attempt_at DOUBLE PRECISION,
                    last_error TEXT,
                    updated_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX IF NOT EXISTS relay_deliveries_due ON relay_deliveries (state, next_attempt_at)",
                // The relay's first question for every recipient.
                "CREATE INDEX IF NOT EXISTS team_identities_relay_address ON team_identities (relay_address)",
            ]),
        // DKIM as a check on e-mail sources: the public key registered with a source (NULL: not checked);
        // and what the console's relay traffic page reads: a team's messages, and the refusals.
        SchemaMigration(
            version: 27,
            statements: [
                "ALTER TABLE email_sources ADD COLUMN dkim_public_key TEXT",
                "CREATE INDEX IF NOT EXISTS relay_messages_team ON relay_messages (team_id, received_at)",
                relayRefusalsTable,
                "CREATE INDEX IF NOT EXISTS relay_refusals_team ON relay_refusals (team_id, at)",
            ]),
        // A message's content as it arrives, a chunk per row, written in the transaction that writes
        // the message and its delivery record: a 25 MB message is never one value in memory. Version
        // 19 runs before 25 on a new database, so the table cannot reference `relay_messages`
        // (PostgreSQL checks that a referenced table exists); only the store writes it, with its message.
        SchemaMigration(
            version: 19,
            statements: [
                """
                CREATE TABLE IF NOT EXISTS relay_message_chunks (
                    message_id TEXT NOT NULL,
                    sequence INTEGER NOT NULL,
                    bytes TEXT NOT NULL,
                    PRIMARY KEY (message_id, sequence)
                )
                """,
                // The daily purge of old refusals reads them by time alone, across teams. The table is
                // 27's; on a new database 19 runs first and creates it as 27 does.
                relayRefusalsTable,
                "CREATE INDEX IF NOT EXISTS relay_refusals_at ON relay_refusals (at)",
            ]),
    ]

    /// `relay_refusals` as version 27 created it; version 19 indexes it, and runs first on a new database.
    static let relayRefusalsTable = """
        CREATE TABLE IF NOT EXISTS relay_refusals (
            id TEXT PRIMARY KEY,
            team_id TEXT NOT NULL,
            sender TEXT NOT NULL,
            recipient TEXT NOT NULL,
            reply TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL
        )
        """
}
