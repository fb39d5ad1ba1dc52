import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Logging
import Testing

@testable import AppleIDStore

/// SQLite's relay accept, the check of the limits, the decision and the writes, goes to the writer's
/// thread as one work item (issue 38, goal 3): the caller waits once, not once per statement.
@Suite("SQLite's relay accept is one hand-over to the writer")
struct RelayAcceptHandOverTests {
    static let limits = RelayAcceptLimits(daily: RelayDailyLimit(count: 2, since: Fixture.date(-86_400)), teamBytes: 1_000)

    /// A store opened as `siwa serve` opens it, and its writer connection.
    static func withStore(_ body: (SQLStore, SQLiteSerialConnection) async throws -> Void) async throws {
        try await TemporaryDirectory.with { directory in
            let (store, shutdown) = try await SQLStore.sqlite(
                path: directory.appendingPathComponent("store.sqlite").path, logger: Logger(label: "test"))
            do {
                try await body(store, try #require((store.connections as? SQLiteConnections)?.writer.raw as? SQLiteSerialConnection))
            } catch {
                try? await shutdown()
                throw error
            }
            try await shutdown()
        }
    }

    @Test("a message within its limits: checked, written and committed in one work item")
    func acceptedInOneWorkItem() async throws {
        try await Self.withStore { (store: SQLStore, writer: SQLiteSerialConnection) async throws in
            let before = writer.handedOver
            #expect(try await store.accept([StoreConformanceTests.relayed("m1")], limits: Self.limits) == .accepted)
            #expect(writer.handedOver - before == 1)
            #expect(try await store.relayMessageSource(id: "m1") == [0x53, 0x3A, 0x20, 0xFF, 0x0D, 0x0A, 0x00])
            #expect(try await store.relayStoredBytes(teamID: "TEAM123456") == 7)
        }
    }

    @Test("a message past its daily limit: refused in the same work item, nothing written")
    func refusedInOneWorkItem() async throws {
        try await Self.withStore { (store: SQLStore, writer: SQLiteSerialConnection) async throws in
            #expect(
                try await store.accept([StoreConformanceTests.relayed("m1"), StoreConformanceTests.relayed("m2")], limits: Self.limits) == .accepted)
            let before = writer.handedOver
            #expect(try await store.accept([StoreConformanceTests.relayed("m3")], limits: Self.limits) == .dailyLimit)
            #expect(writer.handedOver - before == 1)
            #expect(try await store.relayMessageSource(id: "m3") == nil)
            #expect(try await store.relayStoredBytes(teamID: "TEAM123456") == 14)
        }
    }

    @Test("a write that fails halfway rolls the whole batch back, and the writer goes on")
    func failedWriteRollsBack() async throws {
        try await Self.withStore { (store: SQLStore, _: SQLiteSerialConnection) async throws in
            try await store.accept([StoreConformanceTests.relayed("taken")])
            await #expect(throws: (any Error).self) {
                try await store.accept(
                    [StoreConformanceTests.relayed("fresh"), StoreConformanceTests.relayed("taken")], limits: RelayAcceptLimits(teamBytes: 1_000))
            }
            #expect(try await store.relayMessageSource(id: "fresh") == nil, "the batch's first message went with the second")
            #expect(try await store.relayStoredBytes(teamID: "TEAM123456") == 7)
            #expect(try await store.accept([StoreConformanceTests.relayed("fresh")], limits: Self.limits) == .accepted)
        }
    }
}
