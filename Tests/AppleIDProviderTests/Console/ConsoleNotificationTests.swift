import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

@Suite("Console: the test notification and the e-mail sources' SPF check")
struct ConsoleNotificationTests {
    /// Answers from a table; a name missing from it fails like an unreachable server.
    struct TableResolver: TXTResolver {
        let answers: [String: TXTAnswer]
        func txtRecords(of domain: String) async throws(TXTLookupError) -> TXTAnswer {
            guard let answer = answers[domain] else { throw TXTLookupError("no answer within 3 s") }
            return answer
        }
    }

    @Test("a test notification is an outbox message like a user's event, for the primary App ID, with a test type and no user")
    func testNotification() async throws {
        let harness = try await ProviderHarness.make()
        await #expect(throws: ConsoleError.refused("Register a server-to-server notification endpoint for com.a.app first.")) {
            _ = try await harness.provider.sendTestNotification(groupID: "com.a.app", teamID: "TEAMAAAAAA")
        }
        _ = try await harness.provider.setNotificationEndpoint("https://a.example.com/apple", groupID: "com.a.app", teamID: "TEAMAAAAAA")
        let message = try await harness.provider.sendTestNotification(groupID: "com.a.app", teamID: "TEAMAAAAAA")
        #expect(message.audience == "com.a.app")
        #expect(message.event.type == .test)
        #expect(message.event.subject == NotificationEvent.testSubject)
        #expect(message.event.eventTime == Int64(ProviderHarness.now.timeIntervalSince1970 * 1000))
        #expect(try await harness.store.dueMessages(at: harness.clock.now(), limit: 10) == [message])
        let log = try await harness.provider.deliveries(groupID: "com.a.app", teamID: "TEAMAAAAAA")
        #expect(log.map(\.0.id) == [message.id])
        await #expect(throws: ConsoleError.self) {
            _ = try await harness.provider.sendTestNotification(groupID: "com.a.app", teamID: "TEAMBBBBBB")
        }
    }

    @Test("Send test notification is rate-limited per group, and refused while the group's outbox is full")
    func testNotificationLimits() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.provider.setNotificationEndpoint("https://a.example.com/apple", groupID: "com.a.app", teamID: "TEAMAAAAAA")
        func send() async throws { _ = try await harness.provider.sendTestNotification(groupID: "com.a.app", teamID: "TEAMAAAAAA") }
        for _ in 0..<5 { try await send() }
        let tooFast = await #expect(throws: ConsoleError.self) { try await send() }
        #expect(tooFast?.kind == .refused)
        #expect(tooFast?.message.contains("at most 5 test notifications a minute") == true)
        // Another group is not limited by this one.
        _ = try await harness.provider.setNotificationEndpoint("https://b.example.com/apple", groupID: "com.b.app", teamID: "TEAMBBBBBB")
        _ = try await harness.provider.sendTestNotification(groupID: "com.b.app", teamID: "TEAMBBBBBB")
        // A minute later it may send again, until 20 messages wait undelivered.
        for _ in 0..<3 {
            harness.clock.advance(by: 61)
            for _ in 0..<5 { try await send() }
        }
        harness.clock.advance(by: 61)
        let full = await #expect(throws: ConsoleError.self) { try await send() }
        #expect(full?.message.contains("20 notifications are waiting") == true)
        #expect(try await harness.store.messages(groupID: "com.a.app", limit: 100).count == 20)
    }

    @Test("the test notification is signed like every notification: RS256, events as a JSON string, exp = iat + 86400")
    func testNotificationSigned() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.provider.setNotificationEndpoint("https://a.example.com/apple", groupID: "com.a.app", teamID: nil)
        let message = try await harness.provider.sendTestNotification(groupID: "com.a.app", teamID: nil)
        let parts = try harness.provider.signedNotification(message).split(separator: ".").map(String.init)
        let header = String(decoding: try Base64URL.decode(parts[0]), as: UTF8.self)
        let payload = String(decoding: try Base64URL.decode(parts[1]), as: UTF8.self)
        #expect(header.contains("\"alg\":\"RS256\""))
        let iat = Int(ProviderHarness.now.timeIntervalSince1970)
        #expect(
            payload
                == "{\"iss\":\"https://id.example.com\",\"aud\":\"com.a.app\",\"exp\":\(iat + 86_400),\"iat\":\(iat),"
                + "\"events\":\"{\\\"type\\\":\\\"test\\\",\\\"sub\\\":\\\"test\\\",\\\"event_time\\\":\(iat * 1000)}\",\"jti\":\"\(message.id)\"}")
    }

    @Test(
        "each source's SPF status comes from its domain's TXT records",
        arguments: [
            ("mail.example.com", EmailSource.Check.verified),
            ("news@example.org", .verified),
            ("nospf.example.com", .spfMissing),
            ("gone.example.com", .spfMissing),
            ("twice.example.com", .spfInvalid),
            ("slow.example.com", .lookupFailed),
        ])
    func spfStatus(source: String, expected: EmailSource.Check) async throws {
        let resolver = TableResolver(answers: [
            "mail.example.com": .records(["google-site-verification=abc", "v=spf1 include:_spf.example.net ~all"]),
            "example.org": .records(["V=SPF1 -all"]),
            "nospf.example.com": .records(["hello"]),
            "gone.example.com": .noSuchName,
            "twice.example.com": .records(["v=spf1 -all", "v=spf1 a -all"]),
        ])
        let harness = try await ProviderHarness.make(txtResolver: resolver)
        _ = try await harness.provider.addEmailSources(source, teamID: "TEAMAAAAAA")
        #expect(try await harness.provider.emailSources(teamID: "TEAMAAAAAA").first?.check == .notChecked)
        harness.clock.advance(by: 60)
        let checked = try #require(try await harness.provider.checkEmailSources(teamID: "TEAMAAAAAA").first)
        #expect(checked.check == expected)
        #expect(checked.checkedAt == ProviderHarness.now.addingTimeInterval(60))
    }

    @Test("without a resolver every lookup fails, and says so")
    func unconfigured() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.provider.addEmailSources("mail.example.com", teamID: "TEAMAAAAAA")
        #expect(try await harness.provider.checkEmailSources(teamID: "TEAMAAAAAA").map(\.check) == [.lookupFailed])
        await #expect(throws: ConsoleError.self) { _ = try await harness.provider.checkEmailSources(teamID: "NOSUCHTEAM") }
    }
}
