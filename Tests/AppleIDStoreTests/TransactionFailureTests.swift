import AppleIDProtocol
import AppleIDProvider
import Foundation
import Logging
import NIOCore
import SQLKit
import Synchronization
import Testing

@testable import AppleIDStore

/// Issue 13: an operation that writes more than one row is one transaction. Each test fails the
/// operation's second statement and checks that the first left nothing behind.
@Suite("Transactions: a failed second write leaves nothing half-written")
struct TransactionFailureTests {
    static let groupID: ClientID = "com.example.app"
    static let identity = TeamIdentity(
        accountID: "acct-1", teamID: "TEAM123456", subject: "000123.abcdef0123456789abcdef0123456789.0123",
        relayAddress: "abc123@privaterelay.example.com")
    static let consent = Consent(
        accountID: "acct-1", groupID: groupID, grantedAt: Fixture.t0, scopes: [.email], email: identity.relayAddress, isPrivateEmail: true)
    static let approval = Approval(consent: consent, identity: identity, grant: Fixture.grant(id: "grant-1"), code: Fixture.code())

    @Test("an approval writes its relay address, consent, grant and code together", arguments: StoreKind.available)
    func approvalWritesEverything(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.save(Fixture.account())
            try await store.save(Self.approval)
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "TEAM123456") == Self.identity)
            #expect(try await store.consent(accountID: "acct-1", groupID: Self.groupID) == Self.consent)
            #expect(try await store.grant(id: "grant-1") == Self.approval.grant)
            #expect(try await store.authorizationCode(hash: Fixture.code().codeHash) == Fixture.code())
        }
    }

    /// On SQLite the approval is a transaction (on PostgreSQL one statement: see the next test). The
    /// failing wrapper runs it statement by statement, as a source that does not pipeline.
    @Test("an approval whose second write fails leaves no relay address, consent, grant or code", arguments: StoreKind.sqliteKinds)
    func approval(kind: StoreKind) async throws {
        try await kind.withSQLStore { store in
            try await store.save(Fixture.account())
            await #expect(throws: InjectedFailure.self) { try await store.failingStatement(2).save(Self.approval) }
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "TEAM123456") == nil)
            #expect(try await store.consent(accountID: "acct-1", groupID: Self.groupID) == nil)
            #expect(try await store.grant(id: "grant-1") == nil)
            #expect(try await store.authorizationCode(hash: Fixture.code().codeHash) == nil)
        }
    }

    /// The database itself refuses one of the approval's writes (a trigger): the consent, in the
    /// middle, or the code, last. What came before it in the transaction (SQLite, whose statements go
    /// to the writer together) or the statement (PostgreSQL) is undone.
    @Test(
        "an approval whose consent or code the database refuses leaves no relay address, consent, grant or code",
        arguments: StoreKind.sqlKinds, ["consents", "authorization_codes"])
    func approvalRefusedByTheDatabase(kind: StoreKind, refusing table: String) async throws {
        try await kind.withSQLStore { store in
            try await store.save(Fixture.account())
            try await store.refuseInserts(into: table)
            await #expect(throws: (any Error).self) { try await store.save(Self.approval) }
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "TEAM123456") == nil)
            #expect(try await store.consent(accountID: "acct-1", groupID: Self.groupID) == nil)
            #expect(try await store.grant(id: "grant-1") == nil)
            #expect(try await store.authorizationCode(hash: Fixture.code().codeHash) == nil)
        }
    }

    /// Issue 24: consuming the code and inserting its tokens are one unit. Were the code burnt by a
    /// failed exchange, the client's retry would look like a replay and revoke the grant.
    @Test("a code exchange whose token insert fails leaves the code redeemable, and the retry revokes nothing", arguments: StoreKind.available)
    func codeExchange(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let exchange = try await CodeExchangeFixture.start(on: store)
            try await store.insert([CodeExchangeFixture.takenAccessToken])
            exchange.random.repeats = true
            let failed = try #require(await exchange.redeem().failure, "the access token's hash is taken, so the insert fails")
            #expect(failed.code == .serverError)
            let code = try #require(try await store.authorizationCode(hash: OpaqueToken.hash(CodeExchangeFixture.code)))
            #expect(code.consumedAt == nil, "the failed exchange left the code unconsumed")

            exchange.random.repeats = false
            let tokens = try await exchange.redeem().get()
            #expect(try await store.grant(id: "grant-1")?.revokedAt == nil, "the retry is no replay: nothing is revoked")
            #expect(try await store.token(hash: OpaqueToken.hash(tokens.accessToken))?.grantID == "grant-1")
        }
    }

    @Test("a revocation (stop using) whose second write fails keeps the grant live and the consent", arguments: StoreKind.sqlKinds)
    func revocation(kind: StoreKind) async throws {
        try await kind.withSQLStore { store in
            try await store.save(Fixture.account())
            try await store.save(Self.approval)
            await #expect(throws: InjectedFailure.self) {
                try await store.failingStatement(2).stopUsing(accountID: "acct-1", groupID: Self.groupID, at: Fixture.date(60), notifying: [])
            }
            #expect(try await store.grant(id: "grant-1")?.revokedAt == nil)
            #expect(try await store.consent(accountID: "acct-1", groupID: Self.groupID) == Self.consent)
        }
    }

    @Test("an account deletion whose second write fails leaves the account and its grants as they were", arguments: StoreKind.sqlKinds)
    func accountDeletion(kind: StoreKind) async throws {
        try await kind.withSQLStore { store in
            try await store.save(Fixture.account())
            try await store.save(Self.approval)
            await #expect(throws: InjectedFailure.self) {
                try await store.failingStatement(2).deleteAccount(id: "acct-1", at: Fixture.date(60), notifying: [])
            }
            #expect(try await store.account(id: "acct-1")?.deletedAt == nil)
            #expect(try await store.grant(id: "grant-1")?.revokedAt == nil)
        }
    }
}

struct InjectedFailure: Error {}

extension SQLStore {
    /// A trigger of this store's database that makes every insert into `table` fail.
    func refuseInserts(into table: String) async throws {
        if db.dialect.name == "postgresql" {
            try await db.raw(
                "CREATE FUNCTION refuse_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$"
            ).run()
            try await db.raw("CREATE TRIGGER refuse_insert BEFORE INSERT ON \(ident: table) FOR EACH ROW EXECUTE FUNCTION refuse_insert()").run()
        } else {
            try await db.raw("CREATE TRIGGER refuse_insert BEFORE INSERT ON \(ident: table) BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
                .run()
        }
    }
}

extension SQLStore {
    /// This store's database, with the `number`th statement of each transaction failing.
    func failingStatement(_ number: Int) -> SQLStore {
        SQLStore(connections: FailingStatementSource(inner: connections, failing: number), sealer: sealer)
    }
}

/// Transactions whose `failing`th statement (counted after `BEGIN`) throws ``InjectedFailure``.
struct FailingStatementSource: SQLConnectionSource {
    let inner: any SQLConnectionSource
    let failing: Int

    var database: any SQLDatabase { inner.database }

    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await inner.transaction { db in try await body(FailingStatementDatabase(inner: db, failing: failing)) }
    }
}

final class FailingStatementDatabase: SQLDatabaseWrapper, Sendable {
    let inner: any SQLDatabase
    let failing: Int
    private let count = Mutex(0)

    init(inner: any SQLDatabase, failing: Int) {
        self.inner = inner
        self.failing = failing
    }

    var wrapped: any SQLDatabase { inner }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let number = count.withLock { count in
            count += 1
            return count
        }
        if number == failing { throw InjectedFailure() }
        try await inner.execute(sql: query, onRow)
    }
}
