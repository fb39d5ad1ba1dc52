import AppleIDProtocol
import AppleIDProvider
import Foundation
import PostgresKit
import Testing

@testable import AppleIDStore

/// Issue 24, part 3: the hot paths' statements are prepared once per PostgreSQL connection and then
/// run by name, with the same answers as unprepared. Runs when `SIWA_TEST_POSTGRES_URL` is set.
@Suite("PostgreSQL prepared statements", .enabled(if: StoreKind.postgresURL != nil))
struct PostgresPreparedStatementTests {
    /// One connection, so that every statement of a test and its look at `pg_prepared_statements`
    /// share the session.
    static let oneConnection = PostgresPoolSettings(maximumConnections: 1, leaseTimeout: .seconds(300))

    @Test("the store's lookups by key and the redemption are prepared once per connection, and answer as before")
    func storePreparesItsHotStatements() async throws {
        try await PostgresPoolTests.withPostgresStore(Self.oneConnection) { store in
            let account = Fixture.account()
            try await store.save(account)
            for _ in 1...3 { #expect(try await store.account(id: account.id)?.appleID == account.appleID) }
            #expect(try await store.token(hash: "absent") == nil)
            let binding = CodeBinding(clientID: ClientID("com.example.app"), redirectURI: nil, codeChallenge: nil)
            let token = NewToken(tokenHash: "t", kind: .access, createdAt: Date(timeIntervalSince1970: 1), expiresAt: nil)
            for _ in 1...2 {
                #expect(try await store.redeemCode(hash: "absent", binding: binding, at: Date(), validAt: Date(), issuing: [token]) == nil)
            }
            let prepared = try await Self.preparedStatements(store.db)
            #expect(prepared.filter { $0.contains("FROM \"accounts\" WHERE \"id\" = $1") }.count == 1, "\(prepared)")
            #expect(prepared.contains { $0.contains("FROM \"tokens\" WHERE \"token_hash\" = $1") }, "\(prepared)")
            #expect(prepared.filter { $0.contains("WITH redeemed AS (UPDATE authorization_codes") }.count == 1, "\(prepared)")
        }
    }

    /// The approval (authorize's write) is one statement: its upserts are CTEs of the code's.
    @Test("an approval is one prepared statement, and writes everything")
    func approvalIsOnePreparedStatement() async throws {
        try await PostgresPoolTests.withPostgresStore(Self.oneConnection) { store in
            try await store.save(Fixture.account())
            try await store.save(TransactionFailureTests.approval)
            let prepared = try await Self.preparedStatements(store.db)
            let approvals = prepared.filter { $0.hasPrefix("WITH \"approved_0\" AS (INSERT INTO \"team_identities\"") }
            #expect(approvals.count == 1, "\(prepared)")
            #expect(approvals.first?.contains("INSERT INTO \"authorization_codes\"") == true, "\(prepared)")
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "TEAM123456") == TransactionFailureTests.identity)
            #expect(try await store.consent(accountID: "acct-1", groupID: TransactionFailureTests.groupID) == TransactionFailureTests.consent)
            #expect(try await store.grant(id: "grant-1") == TransactionFailureTests.approval.grant)
            #expect(try await store.authorizationCode(hash: Fixture.code().codeHash) == Fixture.code())
        }
    }

    @Test("with preparation off, nothing is prepared")
    func offPreparesNothing() async throws {
        var settings = Self.oneConnection
        settings.preparesStatements = false
        try await PostgresPoolTests.withPostgresStore(settings) { store in
            let account = Fixture.account()
            try await store.save(account)
            #expect(try await store.account(id: account.id)?.appleID == account.appleID)
            #expect(try await Self.preparedStatements(store.db).isEmpty)
        }
    }

    @Test("the same SQL with a number, a NULL or an integer is three statements, each with its own types")
    func typesArePartOfTheStatement() async throws {
        try await withPreparingConnection { database, statements, connection in
            func value(_ bound: any Encodable & Sendable) async throws -> Double? {
                try await database.raw("SELECT CAST(\(SQLBind(bound)) AS DOUBLE PRECISION) + 0.5 AS v").first()?
                    .decode(column: "v", as: Double?.self)
            }
            #expect(try await value(1.5) == 2.0)
            #expect(try await value(1.25) == 1.75)
            #expect(try await value(Double?.none) == nil)
            // Read as a float8, the int8 3 would be a denormal: it must be its own statement.
            #expect(try await value(3) == 3.5)
            #expect(statements.namedCount == 3)
            let types = try await connection.sql().raw("SELECT parameter_types::text AS t FROM pg_prepared_statements ORDER BY name")
                .all().map { try $0.decode(column: "t", as: String.self) }
            #expect(types.sorted() == ["{\"double precision\"}", "{\"double precision\"}", "{bigint}"])
        }
    }

    @Test("a prepared statement whose table changed (another instance migrated it) is prepared again and answers")
    func staleStatementIsPreparedAgain() async throws {
        try await withPreparingConnection { database, _, connection in
            try await connection.sql().raw("CREATE TEMPORARY TABLE changing (a INTEGER)").run()
            try await connection.sql().raw("INSERT INTO changing VALUES (1)").run()
            for _ in 1...2 { #expect(try await database.raw("SELECT * FROM changing").first()?.allColumns == ["a"]) }
            try await connection.sql().raw("ALTER TABLE changing ADD COLUMN b TEXT DEFAULT 'new'").run()
            let row = try #require(try await database.raw("SELECT * FROM changing").first())
            #expect(row.allColumns == ["a", "b"])
            #expect(try row.decode(column: "b", as: String.self) == "new")
            #expect(try await database.raw("SELECT * FROM changing").first()?.allColumns == ["a", "b"])
        }
    }

    @Test("a statement PostgreSQL refused to prepare reaches the caller with its error, and is prepared anew on the next call")
    func failedPreparationIsNotKept() async throws {
        try await withPreparingConnection { database, _, connection in
            do {
                _ = try await database.raw("SELECT * FROM appears_later").all()
                Issue.record("a statement on a missing table answered")
            } catch let error as PSQLError {
                #expect(error.serverInfo?[.sqlState] == "42P01")
            }
            try await connection.sql().raw("CREATE TEMPORARY TABLE appears_later (a INTEGER)").run()
            #expect(try await database.raw("SELECT * FROM appears_later").all().isEmpty)
        }
    }

    @Test("past the limit, statements run unprepared and still answer")
    func limitPerConnection() async throws {
        try await withPreparingConnection(limit: 2) { database, statements, connection in
            for number in 1...3 {
                let row = try await database.raw("SELECT \(unsafeRaw: String(number)) + \(bind: number) AS v").first()
                #expect(try row?.decode(column: "v", as: Int.self) == 2 * number)
            }
            #expect(statements.namedCount == 2)
            #expect(try await Self.preparedStatements(connection.sql()).count == 2)
        }
    }

    /// A connection of its own whose ``PreparedStatement``s run through a fresh registry.
    private func withPreparingConnection(
        limit: Int = 64, _ body: (any SQLDatabase, PostgresPreparedStatements, PostgresConnection) async throws -> Void
    ) async throws {
        try await PostgresPoolTests.withOwnConnection { connection in
            let statements = PostgresPreparedStatements(limit: limit)
            let database = PreparingDatabase(wrapped: LiveConnectionDatabase(connection, preparedStatements: statements))
            try await body(database, statements, connection)
        }
    }

    /// The text of every statement prepared in the session of `database`.
    private static func preparedStatements(_ database: any SQLDatabase) async throws -> [String] {
        try await database.raw("SELECT statement FROM pg_prepared_statements").all().map { try $0.decode(column: "statement", as: String.self) }
    }
}
