import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// What several server instances on one store rely on: one key ring, and one deliverer per message.
extension StoreConformanceTests {
    static func key(_ id: String, _ state: SigningKeyRecord.State, at offset: TimeInterval = 0) -> SigningKeyRecord {
        SigningKeyRecord(
            id: SigningKeyID(rawValue: id), privateKeyPEM: "PEM-\(id)", state: state, createdAt: Fixture.date(offset),
            activatedAt: state == .active ? Fixture.date(offset) : nil)
    }

    @Test("a second active or next key is not inserted; a retired one is", arguments: StoreKind.available)
    func insertSigningKeyIfAbsent(kind: StoreKind) async throws {
        // Throwing by its signature: every `try` of this body is inside `#expect`.
        try await kind.withStore { (store: any ProviderStore) async throws in
            #expect(try await store.insertSigningKeyIfAbsent(Self.key("a1", .active)))
            #expect(try await !store.insertSigningKeyIfAbsent(Self.key("a2", .active)))
            #expect(try await store.insertSigningKeyIfAbsent(Self.key("n1", .next)))
            #expect(try await !store.insertSigningKeyIfAbsent(Self.key("n2", .next)))
            #expect(try await store.insertSigningKeyIfAbsent(Self.key("r1", .retired)))
            #expect(try await store.insertSigningKeyIfAbsent(Self.key("r2", .retired)))
            #expect(try await store.signingKeys().map(\.id.rawValue).sorted() == ["a1", "n1", "r1", "r2"])
        }
    }

    @Test("of ten concurrent rotations of the same keys, exactly one applies", arguments: StoreKind.available)
    func concurrentRotations(kind: StoreKind) async throws {
        try await kind.withStore { store in
            for key in [Self.key("active", .active), Self.key("next", .next)] { #expect(try await store.insertSigningKeyIfAbsent(key)) }
            let applied = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        try await store.rotateSigningKeys(
                            SigningKeyRotation(
                                retiring: "active", promoting: "next", publishing: Self.key("fresh-\(index)", .next, at: 60),
                                date: Fixture.date(60)))
                    }
                }
                return try await group.reduce(into: 0) { count, applied in count += applied ? 1 : 0 }
            }
            #expect(applied == 1)
            let keys = try await store.signingKeys()
            #expect(keys.count == 3)
            #expect(keys.first { $0.id == "active" }?.state == .retired)
            #expect(keys.first { $0.id == "active" }?.retiredAt == Fixture.date(60))
            #expect(keys.first { $0.id == "next" }?.state == .active)
            #expect(keys.first { $0.id == "next" }?.activatedAt == Fixture.date(60))
            #expect(keys.filter { $0.state == .next }.count == 1)
            // The same rotation again finds the keys moved on and writes nothing.
            let stale = SigningKeyRotation(retiring: "active", promoting: "next", publishing: Self.key("late", .next), date: Fixture.date(90))
            #expect(try await !store.rotateSigningKeys(stale))
            #expect(try await store.signingKeys().count == 3)
        }
    }

    static func message(_ id: String, at offset: TimeInterval) -> OutboxMessage {
        OutboxMessage(
            id: id, groupID: "com.example.app", audience: "com.example.app",
            event: NotificationEvent(type: .consentRevoked, subject: "sub", eventTime: 0), createdAt: Fixture.date(offset))
    }

    /// Writes `messages` to the outbox the way the engine does: with a lifecycle change.
    static func enqueue(_ messages: [OutboxMessage], in store: any ProviderStore) async throws {
        try await store.stopUsing(accountID: "nobody", groupID: "com.example.app", at: Fixture.t0, notifying: messages)
    }

    @Test("a leased message is left alone by other holders until its lease runs out, then taken over", arguments: StoreKind.available)
    func leaseAndTakeOver(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await Self.enqueue([Self.message("m1", at: 0), Self.message("m2", at: 1), Self.message("m3", at: 2)], in: store)
            let now = Fixture.date(10)
            let first = try await store.leaseDueMessages(at: now, holder: "a", until: now.addingTimeInterval(60), limit: 2)
            #expect(first.map(\.id) == ["m1", "m2"])
            let second = try await store.leaseDueMessages(at: now, holder: "b", until: now.addingTimeInterval(60), limit: 10)
            #expect(second.map(\.id) == ["m3"])
            #expect(try await store.leaseDueMessages(at: now, holder: "c", until: now.addingTimeInterval(60), limit: 10).isEmpty)
            // "a" may take its own messages again (its next pass); "b" takes them once the lease ran out.
            #expect(try await store.leaseDueMessages(at: now, holder: "a", until: now.addingTimeInterval(60), limit: 10).map(\.id) == ["m1", "m2"])
            let later = now.addingTimeInterval(60)
            #expect(
                try await store.leaseDueMessages(at: later, holder: "b", until: later.addingTimeInterval(60), limit: 10).map(\.id) == [
                    "m1", "m2", "m3",
                ])
        }
    }

    @Test("a handed-back lease frees the message at once; delivered messages are never leased", arguments: StoreKind.available)
    func releaseAndDelivered(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await Self.enqueue([Self.message("m1", at: 0), Self.message("m2", at: 1)], in: store)
            let now = Fixture.date(10)
            let leased = try await store.leaseDueMessages(at: now, holder: "a", until: now.addingTimeInterval(60), limit: 10)
            #expect(leased.count == 2)
            var delivered = leased[0]
            delivered.attempts = 1
            delivered.deliveredAt = now
            try await store.record(
                DeliveryAttempt(messageID: delivered.id, attemptedAt: now, status: 200, latencyMilliseconds: 1, error: nil, endpoint: "e"),
                updating: delivered)
            #expect(try await store.releaseLeases(holder: "b") == 0)
            #expect(try await store.releaseLeases(holder: "a") == 2)
            #expect(try await store.leaseDueMessages(at: now, holder: "b", until: now.addingTimeInterval(60), limit: 10).map(\.id) == ["m2"])
            #expect(try await store.message(id: "m2")?.attempts == 0, "a lease changes nothing of the message itself")
        }
    }

    @Test("handing back some messages' leases frees those only, and only the holder's", arguments: StoreKind.available)
    func releaseSome(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await Self.enqueue([Self.message("m1", at: 0), Self.message("m2", at: 1), Self.message("m3", at: 2)], in: store)
            let now = Fixture.date(10)
            #expect(try await store.leaseDueMessages(at: now, holder: "a", until: now.addingTimeInterval(60), limit: 10).count == 3)
            #expect(try await store.releaseLeases(holder: "b", messageIDs: ["m1"]) == 0)
            #expect(try await store.releaseLeases(holder: "a", messageIDs: ["m1", "m3", "unknown"]) == 2)
            #expect(try await store.releaseLeases(holder: "a", messageIDs: []) == 0)
            let taken = try await store.leaseDueMessages(at: now, holder: "b", until: now.addingTimeInterval(60), limit: 10)
            #expect(taken.map(\.id) == ["m1", "m3"], "m2 is still a's")
        }
    }

    @Test("four holders claiming at once: each due message goes to exactly one", arguments: StoreKind.available)
    func concurrentClaims(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await Self.enqueue((0..<20).map { Self.message("m\($0)", at: Double($0)) }, in: store)
            let now = Fixture.date(100)
            let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
                for holder in 0..<4 {
                    group.addTask {
                        try await store.leaseDueMessages(at: now, holder: "h\(holder)", until: now.addingTimeInterval(60), limit: 5).map(\.id)
                    }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            #expect(claimed.count == Set(claimed).count, "no message went to two holders")
            #expect(Set(claimed) == Set((0..<20).map { "m\($0)" }))
        }
    }

    static func message(_ id: String, group: ClientID, at offset: TimeInterval) -> OutboxMessage {
        OutboxMessage(
            id: id, groupID: group, audience: group, event: NotificationEvent(type: .test, subject: "test", eventTime: 0),
            createdAt: Fixture.date(offset))
    }

    @Test("a lease takes every group's earliest due message before any group's second, and at most perGroup of one", arguments: StoreKind.available)
    func fairLease(kind: StoreKind) async throws {
        try await kind.withStore { store in
            for index in 0..<6 { try await store.enqueue(Self.message("a\(index)", group: "com.a.app", at: Double(index))) }
            try await store.enqueue(Self.message("b0", group: "com.b.app", at: 10))
            try await store.enqueue(Self.message("c0", group: "com.c.app", at: 11))
            let now = Fixture.date(20)
            let first = try await store.leaseDueMessages(at: now, holder: "x", until: now.addingTimeInterval(60), limit: 4, perGroup: 2)
            #expect(first.map(\.id) == ["a0", "a1", "b0", "c0"])
            let second = try await store.leaseDueMessages(at: now, holder: "y", until: now.addingTimeInterval(60), limit: 10, perGroup: 3)
            #expect(second.map(\.id) == ["a2", "a3", "a4"])
        }
    }

    @Test("outbox usage counts a group's pending messages, and its messages created since a moment", arguments: StoreKind.available)
    func outboxUsage(kind: StoreKind) async throws {
        try await kind.withStore { store in
            #expect(try await store.outboxUsage(groupID: "com.a.app", createdSince: Fixture.date(0)) == OutboxUsage(pending: 0, recent: 0))
            for index in 0..<4 { try await store.enqueue(Self.message("a\(index)", group: "com.a.app", at: Double(index * 10))) }
            try await store.enqueue(Self.message("b0", group: "com.b.app", at: 30))
            var delivered = try #require(try await store.message(id: "a0"))
            delivered.deliveredAt = Fixture.date(5)
            try await store.record(
                DeliveryAttempt(messageID: "a0", attemptedAt: Fixture.date(5), status: 200, latencyMilliseconds: 1, error: nil, endpoint: "e"),
                updating: delivered)
            #expect(try await store.outboxUsage(groupID: "com.a.app", createdSince: Fixture.date(20)) == OutboxUsage(pending: 3, recent: 2))
            #expect(try await store.outboxUsage(groupID: "com.a.app", createdSince: Fixture.date(0)) == OutboxUsage(pending: 3, recent: 4))
        }
    }
}
