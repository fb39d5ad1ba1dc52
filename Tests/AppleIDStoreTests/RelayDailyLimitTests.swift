import AppleIDConsole
import AppleIDEmailSources
import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import AppleIDStore
import Foundation
import Logging
import ServerTestSupport
import Testing

/// The relay's daily limit per relay address (spec §11) under concurrent SMTP sessions: counting
/// what the address took and taking one more are one step in the store, so sessions racing for the
/// last place cannot all get it.
@Suite("The relay's daily limit under concurrent sessions")
struct RelayDailyLimitTests {
    enum StoreKind: String, CaseIterable, Sendable { case memory, sqlite }

    static let limit = 5
    static let racers = 8
    static let message = Array("From: <news@example.com>\r\nSubject: Race\r\n\r\nHi\r\n".utf8)

    @Test("sessions racing for the last message of the day: exactly one is taken, the others get the 4xx", arguments: StoreKind.allCases)
    func lastPlaceRace(kind: StoreKind) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-daily-limit-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (store, shutdown): (any ProviderStore & RelayMailStore & RequestLogStore, () async throws -> Void) =
            switch kind {
            case .memory: (MemoryStore(), {})
            case .sqlite: try await SQLStore.sqlite(path: path, logger: Logger(label: "test"))
            }
        do {
            let server = try await TestEngine.make(store: store, configureRelay: { $0.dailyLimit = Self.limit })
            let account = try #require(try await store.account(appleID: TestEngine.maria.appleID))
            _ = try await store.insertTeamIdentity(
                TeamIdentity(
                    accountID: account.id, teamID: TestEngine.teamID, subject: "000001.race.0001", relayAddress: TestEngine.relayAddress))
            _ = try await server.provider.addEmailSources("example.com", teamID: TestEngine.teamID)
            let relay = server.relay
            let address = TestEngine.relayAddress
            for _ in 1..<Self.limit {
                #expect(try await relay.accept(sender: "news@example.com", recipients: [address], source: Self.message).code == 250)
            }
            let codes = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<Self.racers {
                    group.addTask { try await relay.accept(sender: "news@example.com", recipients: [address], source: Self.message).code }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(codes.sorted() == [250] + Array(repeating: 452, count: Self.racers - 1), "answers: \(codes.sorted())")
            #expect(try await relay.messages(.address(address)).count == Self.limit)
        } catch {
            try await shutdown()
            throw error
        }
        try await shutdown()
    }
}
