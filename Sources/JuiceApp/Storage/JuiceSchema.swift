/// Juice's tables, oldest version first. Append new versions; never edit an applied one.
///
/// Sessions, orders, sign-in intents and link offers belong to an account and
/// go with it (`ON DELETE CASCADE`), so deleting an account is one statement. Dates are seconds since 1970.
enum JuiceSchema {
    static let versions: [[String]] = [
        [
            """
            CREATE TABLE IF NOT EXISTS accounts (
                id TEXT PRIMARY KEY,
                email TEXT NOT NULL,
                email_verified BOOLEAN NOT NULL,
                email_is_private BOOLEAN NOT NULL,
                email_forwarding BOOLEAN NOT NULL DEFAULT 1,
                first_name TEXT NOT NULL DEFAULT '',
                last_name TEXT NOT NULL DEFAULT '',
                password_hash TEXT,
                apple_subject TEXT UNIQUE,
                apple_refresh_token TEXT,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS accounts_email ON accounts (email)",
            """
            CREATE TABLE IF NOT EXISTS sessions (
                id_hash TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                expires_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS sessions_account ON sessions (account_id)",
            """
            CREATE TABLE IF NOT EXISTS orders (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                juice TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS sign_in_intents (
                state_hash TEXT PRIMARY KEY,
                purpose TEXT NOT NULL,
                account_id TEXT REFERENCES accounts (id) ON DELETE CASCADE,
                next TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS pending_links (
                id_hash TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                apple_subject TEXT NOT NULL,
                apple_refresh_token TEXT,
                first_name TEXT NOT NULL,
                last_name TEXT NOT NULL,
                next TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL
            )
            """,
        ],
        // Version 2: a sign-in is bound to the browser that started it, and completes in two steps.
        [
            // Intents saved before this version have no binding ('') and can never complete.
            "ALTER TABLE sign_in_intents ADD COLUMN browser_hash TEXT NOT NULL DEFAULT ''",
            """
            CREATE TABLE IF NOT EXISTS pending_completions (
                token_hash TEXT PRIMARY KEY,
                browser_hash TEXT NOT NULL,
                purpose TEXT NOT NULL,
                account_id TEXT REFERENCES accounts (id) ON DELETE CASCADE,
                next TEXT NOT NULL,
                apple_subject TEXT NOT NULL,
                email TEXT NOT NULL,
                email_verified BOOLEAN NOT NULL,
                email_is_private BOOLEAN NOT NULL,
                first_name TEXT,
                last_name TEXT,
                apple_refresh_token TEXT,
                expires_at DOUBLE PRECISION NOT NULL
            )
            """,
        ],
        // Version 3: each Apple notification is applied once; its jti is kept until it expires.
        [
            """
            CREATE TABLE IF NOT EXISTS seen_notifications (
                jti TEXT PRIMARY KEY,
                expires_at DOUBLE PRECISION NOT NULL
            )
            """,
            // Password attempts per e-mail (PasswordAttemptThrottle).
            """
            CREATE TABLE IF NOT EXISTS password_attempts (
                email TEXT PRIMARY KEY,
                attempts INTEGER NOT NULL,
                locked_until DOUBLE PRECISION
            )
            """,
        ],
        // Version 4: the kit binds sign-ins to the browser and keeps its entries and the notifications
        // seen in its own table (SQLSignInWithAppleStorage); Juice's copies of both go.
        [
            "DROP TABLE IF EXISTS pending_completions",
            "DROP TABLE IF EXISTS seen_notifications",
        ],
        // Version 5: when each session began, so that a notification about an earlier sign-in (queued
        // while Juice was down) does not end a later one. Older sessions read as begun at 0: any
        // consent-revoked ends them, the safe side.
        [
            "ALTER TABLE sessions ADD COLUMN started_at DOUBLE PRECISION NOT NULL DEFAULT 0"
        ],
    ]
}
