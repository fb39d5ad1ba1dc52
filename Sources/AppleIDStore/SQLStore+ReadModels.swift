import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: ReadModelStore {
    public func activeAccount(id: String) async throws -> AppleIDAccount? {
        try await activeAccount(where: "id", equals: id)
    }

    public func activeAccount(appleID: String) async throws -> AppleIDAccount? {
        try await activeAccount(where: "apple_id", equals: appleID.lowercased())
    }

    private func activeAccount(where column: String, equals value: String) async throws -> AppleIDAccount? {
        try await prepared.select().column("*").from(AccountRow.table)
            .where(column, .equal, value)
            .where("deleted_at", .is, SQLLiteral.null)
            .where("deactivated", .equal, false)
            .limit(1)
            .first(decoding: AccountRow.self)?
            .account(opening: sealer)
    }

    /// Two statements whatever the number of apps: the consents joined to their app groups, the
    /// identities joined to their teams.
    public func accountOverview(accountID: String) async throws -> AccountOverview {
        let apps = try await rows(
            of: accountID, in: ConsentRow.table, orderedBy: "granted_at",
            naming: (table: AppGroupRow.table, key: "primary_app_id", column: "display_name"), through: "group_id")
        let identities = try await rows(
            of: accountID, in: TeamIdentityRow.table, orderedBy: "team_id", naming: (table: TeamRow.table, key: "id", column: "name"),
            through: "team_id")
        return AccountOverview(
            apps: try apps.map { AccountOverview.App(consent: try $0.row.decode(model: ConsentRow.self).consent(), name: $0.name) },
            identities: try identities.map {
                AccountOverview.Identity(identity: try $0.row.decode(model: TeamIdentityRow.self).identity(), teamName: $0.name)
            })
    }

    /// The account's rows of `table`, each with the `column` of the row of `named.table` whose `key`
    /// equals the row's `foreignKey` (`nil` when there is none): one statement.
    private func rows(
        of accountID: String, in table: String, orderedBy order: String, naming named: (table: String, key: String, column: String),
        through foreignKey: String
    ) async throws -> [(row: any SQLRow, name: String?)] {
        try await db.raw(
            """
            SELECT \(ident: table).*, \(ident: named.table).\(ident: named.column) AS joined_name
            FROM \(ident: table) LEFT JOIN \(ident: named.table) ON \(ident: named.table).\(ident: named.key) = \(ident: table).\(ident: foreignKey)
            WHERE \(ident: table).account_id = \(bind: accountID)
            ORDER BY \(ident: table).\(ident: order)
            """
        ).all().map { ($0, try $0.decode(column: "joined_name", as: String?.self)) }
    }

    /// Two statements whatever the number of Apple IDs: the accounts, then every team identity.
    public func accountListings() async throws -> [AccountListing] {
        let accounts = try await accounts()
        let identities = try await db.select().column("*").from(TeamIdentityRow.table)
            .orderBy("team_id")
            .all(decoding: TeamIdentityRow.self)
            .map { $0.identity() }
        let byAccount = Dictionary(grouping: identities, by: \.accountID)
        return accounts.map { AccountListing(account: $0, identities: byAccount[$0.id] ?? []) }
    }

    /// Two statements whatever the number of messages: the messages, then their attempts (`IN`).
    public func deliveryLog(groupID: ClientID?, limit: Int) async throws -> [DeliveryLogEntry] {
        try await withAttempts(try await messages(groupID: groupID, limit: limit))
    }

    /// Two statements whatever the number of groups and messages: each group's newest messages (ranked
    /// by a window function, which SQLite and PostgreSQL both have), then their attempts (`IN`).
    public func deliveryLog(groupIDs: [ClientID], limitPerGroup: Int) async throws -> [DeliveryLogEntry] {
        guard !groupIDs.isEmpty, limitPerGroup > 0 else { return [] }
        let ranked: SQLQueryString = """
            SELECT * FROM (SELECT notification_outbox.*, \
            ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY created_at DESC) AS position_in_group \
            FROM notification_outbox WHERE group_id IN (\(binds: groupIDs.map(\.rawValue)))) ranked \
            WHERE position_in_group <= \(bind: limitPerGroup) ORDER BY created_at DESC
            """
        let messages = try await db.raw(ranked).all(decoding: OutboxRow.self).map { try $0.message() }
        return try await withAttempts(messages)
    }

    /// Each message with its attempts, read in one statement (`IN`).
    private func withAttempts(_ messages: [OutboxMessage]) async throws -> [DeliveryLogEntry] {
        guard !messages.isEmpty else { return [] }
        let attempts = try await db.select().column("*").from(AttemptRow.table)
            .where("message_id", .in, messages.map(\.id))
            .orderBy("attempted_at")
            .all(decoding: AttemptRow.self)
            .map { $0.attempt() }
        let byMessage = Dictionary(grouping: attempts, by: \.messageID)
        return messages.map { DeliveryLogEntry(message: $0, attempts: byMessage[$0.id] ?? []) }
    }

    public func pendingMessageCount() async throws -> Int {
        try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "pending").from(OutboxRow.table)
            .where("delivered_at", .is, SQLLiteral.null)
            .where("abandoned_at", .is, SQLLiteral.null)
            .first()?
            .decode(column: "pending", as: Int.self) ?? 0
    }

    public func save(_ account: AppleIDAccount, clearingSignInAttempts: Bool) async throws {
        guard clearingSignInAttempts else { return try await save(account) }
        let row = try AccountRow(account, sealing: sealer)
        try await transaction { db in
            try await Self.upsert(row, into: AccountRow.table, key: ["id"], on: db)
            try await db.update(Self.signInAttemptsTable)
                .set("attempts", to: 0)
                .set("locked_until", to: SQLLiteral.null)
                .where("account_id", .equal, account.id)
                .run()
        }
    }
}
