import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Testing

/// The private relay's storage (issue 21): reply aliases, messages with their delivery records,
/// the mailboxes and the smarthost queue.
extension StoreConformanceTests {
    static func relayed(
        _ id: String, direction: RelayMessage.Direction = .forward, account: String = "acct-1", recipient: String = "abc@relay.test",
        destination: String = "maria@example.com", at offset: TimeInterval = 0, state: RelayDelivery.State = .mailbox,
        team: TeamID = "TEAM123456"
    ) -> AcceptedRelayMail {
        let message = RelayMessage(
            id: id, direction: direction, accountID: account, teamID: team, relayAddress: "abc@relay.test",
            originalSender: "news@example.com", recipient: recipient, envelopeSender: "news_at_example_com_x@relay.test",
            destination: destination, from: "\"News\" <news_at_example_com_x@relay.test>", subject: "Hello \(id)",
            receivedAt: Fixture.date(offset), size: 7)
        let delivery = RelayDelivery(
            messageID: id, state: state, nextAttemptAt: state == .queued ? Fixture.date(offset) : nil, updatedAt: Fixture.date(offset))
        // Bytes that are not UTF-8 must come back exactly.
        return AcceptedRelayMail(mail: RelayMail(message: message, delivery: delivery), source: [0x53, 0x3A, 0x20, 0xFF, 0x0D, 0x0A, 0x00])
    }

    @Test(
        "accepted mail is stored with its source and delivery record, and listed by address and mailbox, newest first", arguments: StoreKind.available
    )
    func relayMailRoundTrip(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            let first = Self.relayed("m1", at: 0)
            let second = Self.relayed("m2", at: 10)
            let reply = Self.relayed(
                "m3", direction: .reply, recipient: "news_at_example_com_x@relay.test", destination: "news@example.com", at: 20, state: .held)
            let otherAccount = Self.relayed("m4", account: "acct-2", recipient: "zzz@relay.test", destination: "other@example.com", at: 30)
            try await store.accept([first, second])
            try await store.accept([reply, otherAccount])

            #expect(try await store.relayMail(id: "m1") == first.mail)
            #expect(try await store.relayMessageSource(id: "m1") == (try await first.content.bytes()))
            #expect(try await store.relayMail(id: "none") == nil)
            #expect(try await store.relayMessageSource(id: "none") == nil)
            #expect(try await store.relayMail(.address("abc@relay.test"), limit: 10).map(\.message.id) == ["m2", "m1"])
            #expect(try await store.relayMail(.address("news@example.com"), limit: 10).map(\.message.id) == ["m3"], "by destination")
            #expect(try await store.relayMail(.mailbox(accountID: "acct-1"), limit: 10).map(\.message.id) == ["m2", "m1"], "forwards only")
            #expect(try await store.relayMail(.all, limit: 3).map(\.message.id) == ["m4", "m3", "m2"])
            #expect(
                try await store.relayMessageCount(relayAddress: "abc@relay.test", since: Fixture.date(9)) == 3, "m2, m3 and m4 (same relay address)")
            #expect(try await store.relayMessageCount(relayAddress: "abc@relay.test", since: Fixture.date(30)) == 0, "after, not at")
        }
    }

    @Test("a message that cannot be stored leaves none of the batch behind", arguments: StoreKind.available)
    func relayMailAllOrNothing(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            try await store.accept([Self.relayed("m1")])
            await #expect(throws: (any Error).self) { try await store.accept([Self.relayed("m2"), Self.relayed("m1")]) }
            #expect(try await store.relayMail(id: "m2") == nil)
        }
    }

    @Test("one reply alias per relay address and sender: the first stored wins", arguments: StoreKind.available)
    func replyAliases(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            let first = RelayReplyAlias(
                alias: "news_at_example_com_a@relay.test", accountID: "acct-1", teamID: "TEAM123456", relayAddress: "abc@relay.test",
                sender: "news@example.com", createdAt: Fixture.t0)
            var racer = first
            racer.alias = "news_at_example_com_b@relay.test"
            #expect(try await store.insertReplyAlias(first) == first)
            #expect(try await store.insertReplyAlias(racer) == first)
            #expect(try await store.replyAlias("news_at_example_com_a@relay.test") == first)
            #expect(try await store.replyAlias("news_at_example_com_b@relay.test") == nil)
            var otherSender = first
            otherSender.alias = "shop_at_example_com_c@relay.test"
            otherSender.sender = "shop@example.com"
            #expect(try await store.insertReplyAlias(otherSender) == otherSender)
        }
    }

    @Test("a team identity is found by its relay address", arguments: StoreKind.available)
    func identityByRelayAddress(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            let identity = TeamIdentity(accountID: "acct-1", teamID: "TEAM123456", subject: "000001.aaaa.0001", relayAddress: "abc@relay.test")
            _ = try await store.insertTeamIdentity(identity)
            #expect(try await store.teamIdentity(relayAddress: "abc@relay.test") == identity)
            #expect(try await store.teamIdentity(relayAddress: "xyz@relay.test") == nil)
        }
    }

    @Test("a due delivery is claimed once of ten concurrent claims; its outcome and bounce are written together", arguments: StoreKind.available)
    func relayQueue(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            try await store.accept([Self.relayed("q1", at: 0, state: .queued), Self.relayed("q2", at: 50, state: .queued), Self.relayed("m1")])
            #expect(try await store.dueRelayDeliveries(at: Fixture.date(10), limit: 10).map(\.messageID) == ["q1"])
            let claims = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await store.claimRelayDelivery(messageID: "q1", now: Fixture.date(10), leaseUntil: Fixture.date(130)) }
                }
                return try await group.reduce(into: 0) { count, claimed in count += claimed ? 1 : 0 }
            }
            #expect(claims == 1)
            #expect(try await store.dueRelayDeliveries(at: Fixture.date(100), limit: 10).map(\.messageID) == ["q2"], "q1 is leased")

            var failed = try #require(try await store.relayMail(id: "q1")).delivery
            failed.state = .failed
            failed.attempts = 1
            failed.lastError = "550 5.1.1 unknown"
            failed.nextAttemptAt = nil
            let bounce = Self.relayed(
                "b1", direction: .bounce, recipient: "news@example.com", destination: "news@example.com", at: 11, state: .queued)
            try await store.record(failed, bounce: bounce)
            #expect(try await store.relayMail(id: "q1")?.delivery == failed)
            #expect(try await store.relayMail(id: "b1") == bounce.mail)
            #expect(try await store.dueRelayDeliveries(at: Fixture.date(200), limit: 10).map(\.messageID) == ["b1", "q2"])
            #expect(try await store.relayMessageCount(relayAddress: "abc@relay.test", since: Fixture.date(-1)) == 3, "bounces do not count")
        }
    }

    @Test("an e-mail source's DKIM key is kept, removed with nil, and only set on a source that exists", arguments: StoreKind.available)
    func emailSourceDKIMKey(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            let at = Date(timeIntervalSince1970: 1_800_000_000)
            #expect(try await store.add([EmailSource(teamID: "TEAM123456", value: "shop.example", addedAt: at)], limit: 3))
            #expect(try await store.emailSources(teamID: "TEAM123456").first?.dkimPublicKey == nil, "off by default")
            #expect(try await store.setDKIMKey("MIIBIjANBgkq", teamID: "TEAM123456", value: "shop.example"))
            #expect(try await store.emailSources(teamID: "TEAM123456").first?.dkimPublicKey == "MIIBIjANBgkq")
            #expect(try await !store.setDKIMKey("MIIB", teamID: "TEAM123456", value: "other.example"))
            #expect(try await !store.setDKIMKey("MIIB", teamID: "OTHER12345", value: "shop.example"), "another team's source")
            #expect(try await store.setDKIMKey(nil, teamID: "TEAM123456", value: "shop.example"))
            #expect(try await store.emailSources(teamID: "TEAM123456").first?.dkimPublicKey == nil)
        }
    }

    @Test("the relay's refusals are kept per team, newest first, after a date; a team's mail is listed by team", arguments: StoreKind.available)
    func relayRefusalsAndTeamMail(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            func refusal(_ id: String, team: TeamID = "TEAM123456", at offset: TimeInterval) -> RelayRefusalRecord {
                RelayRefusalRecord(
                    id: id, teamID: team, sender: "spam@elsewhere.com", recipient: "abc@relay.test",
                    reply: "550 5.7.1 Sender not registered for this relay", at: Fixture.date(offset))
            }
            for record in [refusal("r1", at: 0), refusal("r2", at: 10), refusal("r3", team: "OTHER12345", at: 20), refusal("r4", at: 30)] {
                try await store.recordRelayRefusal(record)
            }
            #expect(
                try await store.relayRefusals(teamID: "TEAM123456", since: Fixture.date(5), limit: 10) == [
                    refusal("r4", at: 30), refusal("r2", at: 10),
                ])
            #expect(try await store.relayRefusals(teamID: "TEAM123456", since: Fixture.date(-1), limit: 1).map(\.id) == ["r4"])
            #expect(try await store.relayRefusals(teamID: "NOBODY0000", since: Fixture.date(-1), limit: 10).isEmpty)

            try await store.accept([Self.relayed("m1", at: 0), Self.relayed("m2", at: 10)])
            #expect(try await store.relayMail(.team("TEAM123456"), limit: 10).map(\.message.id) == ["m2", "m1"])
            #expect(try await store.relayMail(.team("OTHER12345"), limit: 10).isEmpty)
        }
    }

    @Test("refusals recorded before the cut-off are purged, of every team; the recent ones stay", arguments: StoreKind.available)
    func purgeRelayRefusals(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            func refusal(_ id: String, team: TeamID, at offset: TimeInterval) -> RelayRefusalRecord {
                RelayRefusalRecord(
                    id: id, teamID: team, sender: "spam@elsewhere.com", recipient: "abc@relay.test",
                    reply: "550 5.7.1 Sender not registered for this relay", at: Fixture.date(offset))
            }
            let recent = refusal("recent", team: "TEAM123456", at: 100)
            for record in [refusal("old", team: "TEAM123456", at: 0), refusal("old-other", team: "OTHER12345", at: 50), recent] {
                try await store.recordRelayRefusal(record)
            }
            #expect(try await store.purgeRelayRefusals(before: Fixture.date(100)) == 2)
            #expect(try await store.relayRefusals(teamID: "TEAM123456", since: Fixture.date(-1), limit: 10) == [recent])
            #expect(try await store.relayRefusals(teamID: "OTHER12345", since: Fixture.date(-1), limit: 10).isEmpty)
            #expect(try await store.purgeRelayRefusals(before: Fixture.date(100)) == 0)
        }
    }

    @Test(
        "relayed mail received before the cut-off goes with its content and delivery record, unless still queued; newer mail stays",
        arguments: StoreKind.available)
    func purgeRelayMail(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            try await store.accept([
                Self.relayed("old", at: 0), Self.relayed("old-queued", at: 10, state: .queued), Self.relayed("new", at: 100),
            ])
            #expect(try await store.purgeRelayMail(receivedBefore: Fixture.date(100)) == 1)
            #expect(try await store.relayMail(id: "old") == nil)
            #expect(try await store.relayMessageSource(id: "old") == nil)
            #expect(try await store.relayMail(.team("TEAM123456"), limit: 10).map(\.message.id) == ["new", "old-queued"])
            #expect(try await store.relayMessageSource(id: "new") != nil)
            #expect(try await store.purgeRelayMail(receivedBefore: Fixture.date(100)) == 0)
        }
    }

    @Test("a message of several chunks is stored a chunk at a time and comes back byte for byte", arguments: StoreKind.available)
    func relayMailInChunks(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            // Every byte value, past two chunk boundaries, behind a head of its own.
            let received = (0..<(2 * RelayMessageChunk.size + 1_000)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            var accepted = Self.relayed("big")
            accepted.content = RelayMessageContent(
                head: Array("Received: by relay.test\r\n".utf8), received: InMemoryMessage(received), bodyStart: 10)
            try await store.accept([accepted])
            let source = try #require(try await store.relayMessageSource(id: "big"))
            #expect(source.count == accepted.content.count)
            #expect(source == Array("Received: by relay.test\r\n".utf8) + received[10...])
        }
    }

    @Test(
        "a stored message is lent back a chunk at a time, never whole; reading up to a limit stops after the chunk that reaches it",
        arguments: StoreKind.available)
    func relayMailReadInChunks(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            let received = (0..<(2 * RelayMessageChunk.size + 1_000)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            var accepted = Self.relayed("big")
            accepted.content = RelayMessageContent(head: Array("Received: by relay.test\r\n".utf8), received: InMemoryMessage(received), bodyStart: 0)
            try await store.accept([accepted])
            var pieces: [Int] = []
            var bytes: [UInt8] = []
            #expect(
                try await store.readRelayMessageSource(id: "big", upTo: nil) {
                    pieces.append($0.count)
                    bytes += $0
                })
            #expect(bytes == (try await accepted.content.bytes()))
            #expect(pieces.count >= 3, "\(pieces)")
            #expect(pieces.allSatisfy { $0 <= RelayMessageChunk.size }, "\(pieces)")

            var head: [UInt8] = []
            #expect(try await store.readRelayMessageSource(id: "big", upTo: 100) { head += $0 })
            #expect(head.count >= 100 && head.count <= pieces[0] + pieces[1], "stopped after the chunk that reached 100 bytes: \(head.count)")
            #expect(head == Array(bytes.prefix(head.count)))
            #expect(try await store.readRelayMessageSource(id: "none", upTo: nil) { _ in Issue.record("nothing to lend") } == false)
        }
    }

    @Test(
        "the daily limit is counted and taken in one step: of batches racing for the last place, one is written",
        arguments: StoreKind.available)
    func relayDailyLimitIsAtomic(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            let limit = RelayAcceptLimits(daily: RelayDailyLimit(count: 3, since: Fixture.date(-1)))
            #expect(try await store.accept([Self.relayed("m1"), Self.relayed("m2")], limits: limit) == .accepted)
            let written = try await withThrowingTaskGroup(of: RelayAcceptance.self) { group in
                for racer in 0..<8 { group.addTask { try await store.accept([Self.relayed("r\(racer)")], limits: limit) } }
                return try await group.reduce(into: 0) { $0 += $1 == .accepted ? 1 : 0 }
            }
            #expect(written == 1)
            #expect(try await store.relayMessageCount(relayAddress: "abc@relay.test", since: Fixture.date(-1)) == 3)
            #expect(try await store.accept([Self.relayed("b1", direction: .bounce)], limits: limit) == .accepted, "bounces do not count")
            let dayLater = RelayAcceptLimits(daily: RelayDailyLimit(count: 3, since: Fixture.date(5)))
            #expect(try await store.accept([Self.relayed("late", at: 10)], limits: dayLater) == .accepted, "a day later")
            let batch = [Self.relayed("x1"), Self.relayed("x2"), Self.relayed("x3")]
            #expect(try await store.accept(batch, limits: dayLater) == .dailyLimit, "a batch past the limit: none")
            #expect(try await store.relayMail(id: "x1") == nil)
        }
    }
}
