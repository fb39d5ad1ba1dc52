/// The device keychain's schema (version 30): saved passwords per Apple ID, and the App IDs'
/// associated `webcredentials` domains that decide which app is offered which password.
extension SQLStore {
    static let keychainMigrations: [SchemaMigration] = [
        SchemaMigration(
            version: 30,
            statements: [
                "ALTER TABLE clients ADD COLUMN webcredentials_domains TEXT NOT NULL DEFAULT '[]'",
                // The password is sealed bound to its row when the store has a storage key (SecretSealer).
                """
                CREATE TABLE IF NOT EXISTS keychain_passwords (
                    account_id TEXT NOT NULL,
                    domain TEXT NOT NULL,
                    user_name TEXT NOT NULL,
                    password TEXT NOT NULL,
                    saved_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (account_id, domain, user_name)
                )
                """,
            ])
    ]
}
