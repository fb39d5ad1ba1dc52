import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// Browser flows that any server instance continues (issue 13): the playground's sign-ins and runs,
/// account sign-ins waiting for the code.
extension StoreConformanceTests {
    /// Two kinds as the server's playground names its own (the store keeps any kind apart).
    static let runKind = FlowRecord.Kind(rawValue: "playground-run")
    static let startKind = FlowRecord.Kind(rawValue: "playground-start")

    static func flow(_ kind: FlowRecord.Kind, _ key: String, payload: String = "{}", expiresIn seconds: TimeInterval = 600) -> FlowRecord {
        FlowRecord(kind: kind, key: key, payload: payload, expiresAt: Fixture.date(seconds))
    }

    @Test("a flow record round-trips, is replaced by its kind and key, and is gone once deleted", arguments: StoreKind.available)
    func flowRecordRoundTrip(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let run = Self.flow(Self.runKind, "run-hash", payload: #"{"browserHash":"b1","sealedRefreshToken":"c2VhbGVk"}"#)
            let sameKeyOtherKind = Self.flow(.pendingAccountSignIn, "run-hash", payload: #"{"account_id":"acct-1"}"#)
            #expect(try await store.flowRecord(Self.runKind, key: "run-hash", now: Fixture.t0) == nil)
            try await store.save(run)
            try await store.save(sameKeyOtherKind)
            #expect(try await store.flowRecord(Self.runKind, key: "run-hash", now: Fixture.t0) == run)
            #expect(try await store.flowRecord(.pendingAccountSignIn, key: "run-hash", now: Fixture.t0) == sameKeyOtherKind)
            #expect(try await store.flowRecord(Self.startKind, key: "run-hash", now: Fixture.t0) == nil)

            var replaced = run
            replaced.payload = #"{"browserHash":"b1","sealedRefreshToken":"bmV3"}"#
            replaced.expiresAt = Fixture.date(3_600)
            try await store.save(replaced)
            #expect(try await store.flowRecord(Self.runKind, key: "run-hash", now: Fixture.date(1_000)) == replaced)

            try await store.deleteFlowRecord(Self.runKind, key: "run-hash")
            #expect(try await store.flowRecord(Self.runKind, key: "run-hash", now: Fixture.t0) == nil)
            #expect(try await store.flowRecord(.pendingAccountSignIn, key: "run-hash", now: Fixture.t0) == sameKeyOtherKind)
            try await store.deleteFlowRecord(Self.runKind, key: "never-saved")
        }
    }

    @Test("an expired flow record is neither read nor taken, and the purge removes it", arguments: StoreKind.available)
    func flowRecordExpiry(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.save(Self.flow(Self.startKind, "old", expiresIn: 600))
            try await store.save(Self.flow(Self.startKind, "live", expiresIn: 1_200))
            #expect(try await store.flowRecord(Self.startKind, key: "old", now: Fixture.date(599)) != nil)
            #expect(try await store.flowRecord(Self.startKind, key: "old", now: Fixture.date(600)) == nil, "expired at its expiry")
            #expect(try await store.takeFlowRecord(Self.startKind, key: "old", now: Fixture.date(600)) == nil)

            #expect(try await store.purgeExpired(now: Fixture.date(600), codesExpiredBefore: Fixture.date(600)) == 1)
            #expect(try await store.flowRecord(Self.startKind, key: "old", now: Fixture.date(0)) == nil, "purged, not only hidden")
            #expect(try await store.flowRecord(Self.startKind, key: "live", now: Fixture.date(600)) != nil)
        }
    }

    @Test("a flow record is taken once: of ten concurrent takes exactly one gets it", arguments: StoreKind.available)
    func flowRecordTakenOnce(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let started = Self.flow(Self.startKind, "state-hash", payload: #"{"browserHash":"b1","nonce":"n1"}"#)
            try await store.save(started)
            let taken = try await withThrowingTaskGroup(of: FlowRecord?.self) { group in
                for _ in 0..<10 { group.addTask { try await store.takeFlowRecord(Self.startKind, key: "state-hash", now: Fixture.date(1)) } }
                return try await group.reduce(into: [FlowRecord]()) { taken, record in if let record { taken.append(record) } }
            }
            #expect(taken == [started])
            #expect(try await store.flowRecord(Self.startKind, key: "state-hash", now: Fixture.date(1)) == nil)
        }
    }
}
