import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: BulkSeedStore {
    /// Multi-row `INSERT`s of at most ``bulkRowsPerStatement`` rows, the whole batch in one
    /// transaction: a million users are a thousand transactions, not five million statements.
    public func insert(_ batch: ScaleSeed.Batch) async throws {
        let accounts = try batch.accounts.map { try AccountRow($0, sealing: sealer) }
        let identities = batch.identities.map(TeamIdentityRow.init)
        let consents = try batch.consents.map(ConsentRow.init)
        let grants = try batch.grants.map(GrantRow.init)
        let tokens = batch.tokens.map(TokenRow.init)
        try await transaction { db in
            try await Self.insertRows(accounts, into: AccountRow.table, on: db)
            try await Self.insertRows(identities, into: TeamIdentityRow.table, on: db)
            try await Self.insertRows(consents, into: ConsentRow.table, on: db)
            try await Self.insertRows(grants, into: GrantRow.table, on: db)
            try await Self.insertRows(tokens, into: TokenRow.table, on: db)
        }
    }

    /// Rows per `INSERT`: their binds stay under SQLite's limit of 32,766 (PostgreSQL's is 65,535)
    /// for tables of up to 16 columns.
    static let bulkRowsPerStatement = 2000

    private static func insertRows<Row: Encodable & Sendable>(_ rows: [Row], into table: String, on db: any SQLDatabase) async throws {
        var start = rows.startIndex
        while start < rows.endIndex {
            let end = min(start + bulkRowsPerStatement, rows.endIndex)
            try await db.insert(into: table).models(Array(rows[start..<end]), with: rowEncoder).run()
            start = end
        }
    }
}
