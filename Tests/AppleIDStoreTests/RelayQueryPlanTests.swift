import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import AppleIDStore
import Foundation
import ServerTestSupport
import Testing

/// The relay's background statements find their rows through an index: the purge of old refusals
/// runs on every start and every day, over a log that grows with every stranger's message.
@Suite("The relay's statements use indexes")
struct RelayQueryPlanTests {
    @Test("SQLite: purging old relay refusals reads them by time through an index")
    func refusalPurgeUsesIndex() async throws {
        try await SQLiteTestStore.with(wrapping: QueryPlanRecorder.sqlite) { store, recorder in
            try await store.recordRelayRefusal(
                RelayRefusalRecord(id: "r1", teamID: "TEAM123456", sender: "a@b.example", recipient: "x@relay.test", reply: "550", at: Fixtures.now))
            recorder.reset()
            #expect(try await store.purgeRelayRefusals(before: Fixtures.now.addingTimeInterval(1)) == 1)
            let plans = try await recorder.plans()
            #expect(!plans.isEmpty)
            for (sql, plan) in plans {
                #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(sql) → \(plan)")
            }
        }
    }
}
