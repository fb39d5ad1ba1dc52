import SQLKit

/// The schema of ``OrganizationStore`` (versions 26 and 28): organizations, the membership columns of
/// a Managed Apple ID, and the withdrawals an access rule change schedules.
extension SQLStore {
    static let organizationMigrations: [SchemaMigration] = [
        SchemaMigration(
            version: 26,
            statements: [
                """
                CREATE TABLE IF NOT EXISTS organizations (
                    id TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    name TEXT NOT NULL,
                    verified_domains TEXT NOT NULL,
                    access_rule TEXT NOT NULL,
                    allowed_apps TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL
                )
                """,
                // One pending withdrawal per organization: the earliest covers every later change.
                """
                CREATE TABLE IF NOT EXISTS organization_withdrawals (
                    organization_id TEXT PRIMARY KEY,
                    due_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX IF NOT EXISTS organization_withdrawals_due ON organization_withdrawals (due_at)",
                // NULL for consumer Apple IDs.
                "ALTER TABLE accounts ADD COLUMN organization_id TEXT",
                "ALTER TABLE accounts ADD COLUMN organization_email TEXT",
                "ALTER TABLE accounts ADD COLUMN deactivated BOOLEAN NOT NULL DEFAULT FALSE",
                // The organization of a Managed Apple ID's grant, for its id_tokens' `org_id`.
                "ALTER TABLE grants ADD COLUMN organization_id TEXT",
                "CREATE INDEX IF NOT EXISTS accounts_organization ON accounts (organization_id) WHERE organization_id IS NOT NULL",
            ]),
        SchemaMigration(
            version: 28,
            statements: [
                // The pass handling a withdrawal, so that with several instances one revokes and notifies.
                "ALTER TABLE organization_withdrawals ADD COLUMN leased_by TEXT",
                "ALTER TABLE organization_withdrawals ADD COLUMN lease_expires_at DOUBLE PRECISION",
                // Where the organization's own sign-in checks passwords (NULL: the server's own check).
                "ALTER TABLE organizations ADD COLUMN federation_url TEXT",
            ]),
    ]
}
