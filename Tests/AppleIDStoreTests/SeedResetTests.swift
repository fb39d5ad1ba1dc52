import AppleIDConsole
import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit
import ServerTestSupport
import Testing

@testable import AppleIDStore

/// `reset()` (issue 36): every store returns to the seeded state, and keeps the seeded Apple IDs'
/// ids and passwords, in one store call.
@Suite("Reset to the seeded state")
struct SeedResetTests {
    static let now = Date(timeIntervalSince1970: 1_795_240_800)
    /// The fixture keys: made at run time, each RSA key took a thread every test shares.
    static let signingKeys = Array(Fixtures.signingKeys.prefix(2))

    /// A development-mode engine on `store`, seeded as a first start seeds, with the seeded state recorded.
    static func seeded(_ store: any ProviderStore & RequestLogStore) async throws -> (AppleIDProvider, ManualClock, DemoFacts, String) {
        let clock = ManualClock(now)
        var configuration = ProviderConfiguration(issuer: "http://127.0.0.1:8080")
        configuration.passwordHashCost = 4
        configuration.developmentMode = true
        let provider = try await AppleIDProvider.start(
            configuration: configuration, storage: .store(store), clock: clock, random: SeededRandomSource(seed: "reset"),
            keyFactory: FixedSigningKeyFactory(pems: signingKeys), logger: testLogger,
            requestRecorder: StoredRequestLog(store: store))
        let (facts, keyPEM) = try await DemoSeed().seed(
            provider: provider, server: "http://127.0.0.1:8080", returnURLs: ["http://127.0.0.1:8081/cb"], keyFilePath: { "\($0).p8" })
        try await provider.recordSeededState()
        return (provider, clock, facts, keyPEM)
    }

    /// A sign-in with a token exchange, a second user's consent, an added Apple ID, a "Stop using Apple
    /// ID" (a notification), a request log entry and a moved clock.
    static func use(_ provider: AppleIDProvider, _ clock: ManualClock, _ facts: DemoFacts, keyPEM: String) async throws {
        let maria = try #require(facts.users.first)
        let request = AuthorizationRequest(
            clientID: facts.servicesID.rawValue, redirectURI: "http://127.0.0.1:8081/cb", responseType: "code id_token",
            responseMode: "form_post", scope: "name email", state: "s", nonce: "n")
        guard case .answered(let answer) = try await provider.authorizeHeadless(request, appleID: maria.appleID) else {
            Issue.record("not answered")
            return
        }
        let secret = try await ClientSecretMinter(teamID: facts.teamID, keyID: facts.keyID, privateKeyPEM: keyPEM)
            .mint(clientID: facts.servicesID, audience: provider.configuration.issuer, issuedAt: clock.now(), lifetime: 300)
        let token = await provider.token(
            TokenRequest(
                grantType: "authorization_code", clientID: facts.servicesID.rawValue, clientSecret: secret, code: answer.issued?.code,
                redirectURI: "http://127.0.0.1:8081/cb"))
        _ = try token.get()
        _ = try await provider.createAccount(appleID: "added@example.com", password: "added pw", firstName: "Ad", lastName: "Ded")
        // A consent that stays (Maria's goes with "Stop using Apple ID" below).
        let robin = try #require(facts.users.last)
        guard case .answered = try await provider.authorizeHeadless(request, appleID: robin.appleID) else {
            Issue.record("not answered")
            return
        }
        let account = try #require(try await provider.lookUpAccount(appleID: maria.appleID))
        try await provider.lifecycle.stopUsing(accountID: account.id, groupID: facts.bundleID)
        await provider.flushRequestLog()
        clock.advance(by: 3_600)
    }

    @Test("a reset removes what was added and keeps the seeded Apple IDs' ids and passwords", arguments: StoreKind.available)
    func resetRemovesEveryKindOfRecord(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let (provider, clock, facts, keyPEM) = try await Self.seeded(store)
            let seededAccounts = try await store.accounts()
            let maria = try #require(seededAccounts.first { $0.appleID == facts.users.first?.appleID })
            try await Self.use(provider, clock, facts, keyPEM: keyPEM)
            #expect(try await store.accounts().count == seededAccounts.count + 1)
            #expect(try await !store.teamIdentities(accountID: maria.id).isEmpty)
            #expect(try await !store.messages(groupID: nil, limit: 10).isEmpty)
            #expect(try await !store.requestLog(clientID: facts.servicesID, proven: true, limit: 10).isEmpty)

            try await provider.reset()

            #expect(try await store.accounts() == seededAccounts)
            #expect(try await store.teamIdentities(accountID: maria.id).isEmpty)
            #expect(try await store.consents(accountID: maria.id).isEmpty)
            #expect(try await store.messages(groupID: nil, limit: 10).isEmpty)
            #expect(try await store.requestLog(clientID: facts.servicesID, proven: true, limit: 10).isEmpty)
            #expect(try await store.requestLog(clientID: facts.servicesID, proven: false, limit: 10).isEmpty)
            #expect(clock.offset == 0)
            #expect(try await store.developerKey(facts.keyID) != nil)
            #expect(try await store.client(facts.servicesID)?.returnURLs == ["http://127.0.0.1:8081/cb"])
            // The seeded state serves again: the same Apple ID signs in after the reset.
            try await Self.use(provider, clock, facts, keyPEM: keyPEM)
        }
    }

    @Test("on SQL, every table but the signing keys holds exactly its seeded rows after a reset", arguments: StoreKind.sqlKinds)
    func everyTableIsSeeded(kind: StoreKind) async throws {
        try await kind.withSQLStore { store in
            let (provider, clock, facts, keyPEM) = try await Self.seeded(store)
            let seeded = try await Self.dump(store)
            try await Self.use(provider, clock, facts, keyPEM: keyPEM)
            let used = try await Self.dump(store)
            let changed = Set(used.keys.filter { used[$0] != seeded[$0] })
            for table in ["accounts", "consents", "grants", "authorization_codes", "tokens", "team_identities", "notification_outbox", "request_log"]
            {
                #expect(changed.contains(table), "using the server did not write \(table)")
            }
            try await provider.reset()
            let reset = try await Self.dump(store)
            for table in seeded.keys.sorted() {
                #expect(reset[table] == seeded[table], "\(table) differs from its seeded rows")
            }
        }
    }

    @Test("a reset is refused outside development mode and when no seeded state is recorded")
    func refusals() async throws {
        let clock = ManualClock(Self.now)
        var configuration = ProviderConfiguration(issuer: "http://127.0.0.1:8080")
        configuration.passwordHashCost = 4
        let production = try await AppleIDProvider.start(
            configuration: configuration, storage: .store(MemoryStore()), clock: clock, keyFactory: FixedSigningKeyFactory(pems: Self.signingKeys),
            logger: testLogger)
        try await production.recordSeededState()
        await #expect(throws: ConsoleError.self) { try await production.reset() }
        configuration.developmentMode = true
        let unseeded = try await AppleIDProvider.start(
            configuration: configuration, storage: .store(MemoryStore()), clock: clock, keyFactory: FixedSigningKeyFactory(pems: Self.signingKeys),
            logger: testLogger)
        await #expect(throws: ConsoleError.self) { try await unseeded.reset() }
    }

    /// Every table's rows (all columns, as text, sorted), by table, without the snapshot copies and
    /// the signing keys.
    static func dump(_ store: SQLStore) async throws -> [String: [String]] {
        let names: SQLQueryString =
            store.db.dialect.name == "postgresql"
            ? "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()"
            : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        var tables: [String: [String]] = [:]
        for name in try await store.db.raw(names).all().map({ try $0.decode(column: "name", as: String.self) })
        where !name.hasPrefix(SQLStore.snapshotPrefix) && name != "signing_keys" {
            let rows = try await store.db.raw("SELECT * FROM \(ident: name)").all()
            tables[name] = rows.map { row in
                row.allColumns.map { column in
                    let text = (try? row.decodeNil(column: column)) == true ? "NULL" : (try? row.decode(column: column, as: String.self))
                    return "\(column)=\(text ?? (try? row.decode(column: column, as: Double.self)).map { "\($0)" } ?? "?")"
                }.joined(separator: "|")
            }.sorted()
        }
        return tables
    }
}
