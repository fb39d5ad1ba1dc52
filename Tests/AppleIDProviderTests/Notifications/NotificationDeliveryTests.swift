import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Logging
import ServerTestSupport
import Testing

@Suite("Notification delivery: retries, log, restarts")
struct NotificationDeliveryTests {
    @Test("an endpoint that fails twice then answers 200 gets the event, with three attempts logged")
    func retries() async throws {
        let (server, account, _) = try await TestEngine.authorized()
        try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestEngine.bundleID)
        let sender = RecordingSender(statuses: [500, 503])
        let delivery = NotificationDelivery(provider: server.provider, sender: sender, logger: Logger(label: "test"))
        #expect(try await delivery.deliverDueMessages() == 1)
        #expect(try await delivery.deliverDueMessages() == 0, "the retry waits for its backoff")
        for _ in 0..<2 {
            server.clock.advance(by: 3600)
            #expect(try await delivery.deliverDueMessages() == 1)
        }
        #expect(try await delivery.deliverDueMessages() == 0)
        let (message, attempts) = try await server.provider.newestDelivery()
        #expect(message.deliveredAt != nil)
        #expect(message.attempts == 3)
        #expect(attempts.map(\.status) == [500, 503, 200])
        #expect(attempts.map(\.succeeded) == [false, false, true])
        // Each attempt is signed afresh (a retry near the end of the window still arrives unexpired), with the
        // same jti, so receivers can recognise a redelivery.
        let jtis = try sender.bodies.map { body -> String in
            let payload = try JSONDecoder().decode([String: String].self, from: Data(body))["payload"] ?? ""
            let claims = try JSONSerialization.jsonObject(with: Data(try Base64URL.decode(String(payload.split(separator: ".")[1]))))
            return (claims as? [String: Any])?["jti"] as? String ?? ""
        }
        #expect(jtis == Array(repeating: message.id, count: 3))
    }

    @Test("backoff doubles with jitter and is capped; past the delivery window a message is abandoned")
    func backoffAndWindow() async throws {
        let (server, account, _) = try await TestEngine.authorized()
        try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestEngine.bundleID)
        var policy = NotificationDelivery.Policy()
        policy.deliveryWindow = 100
        let delivery = NotificationDelivery(
            provider: server.provider, sender: RecordingSender(statuses: Array(repeating: 500, count: 10)), policy: policy,
            logger: Logger(label: "test"))
        try await delivery.deliverDueMessages()
        let first = try await server.provider.newestDelivery().message
        let wait = first.nextAttemptAt.timeIntervalSince(Fixtures.now)
        #expect(wait >= 2.5 && wait < 5)
        server.clock.advance(by: 101)
        try await delivery.deliverDueMessages()
        let last = try await server.provider.newestDelivery().message
        #expect(last.abandonedAt != nil)
        #expect(try await delivery.deliverDueMessages() == 0)
    }

    @Test("without a registered endpoint the message waits, with the reason logged, until one is registered")
    func noEndpoint() async throws {
        let (server, account, _) = try await TestEngine.authorized()
        _ = try await server.provider.setNotificationEndpoint(nil, groupID: TestEngine.bundleID, teamID: TestEngine.teamID)
        try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestEngine.bundleID)
        let sender = RecordingSender()
        let delivery = NotificationDelivery(provider: server.provider, sender: sender, logger: Logger(label: "test"))
        try await delivery.deliverDueMessages()
        #expect(try await server.provider.newestDelivery().attempts.first?.error?.contains("no notification endpoint") == true)
        #expect(sender.bodies.isEmpty)
        _ = try await server.provider.setNotificationEndpoint(
            TestEngine.notificationEndpoint, groupID: TestEngine.bundleID, teamID: TestEngine.teamID)
        server.clock.advance(by: 3600)
        try await delivery.deliverDueMessages()
        #expect(sender.bodies.count == 1)
    }

    @Test("a restart between attempts loses nothing: the outbox and its log live in SQLite")
    func restart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("siwa.sqlite").path
        let clock = ManualClock(Fixtures.now)

        func start() async throws -> (AppleIDProvider, SQLStoreShutdown) {
            let (store, shutdown) = try await SQLStore.sqlite(path: path, logger: Logger(label: "test"))
            var configuration = ProviderConfiguration(issuer: TestEngine.issuer)
            configuration.passwordHashCost = 4
            let provider = try await AppleIDProvider.start(
                configuration: configuration, storage: .store(store), clock: clock, random: SystemRandomSource(),
                keyFactory: FixedSigningKeyFactory(pems: Fixtures.signingKeys), endpointResolver: TestEngine.publicJuice)
            return (provider, shutdown)
        }

        let (first, shutdownFirst) = try await start()
        try await TestEngine.seed(first)
        _ = try await first.setNotificationEndpoint(TestEngine.notificationEndpoint, groupID: TestEngine.bundleID, teamID: TestEngine.teamID)
        _ = try await first.authorizeHeadless(
            AuthorizationRequest(clientID: TestEngine.servicesID.rawValue, redirectURI: TestEngine.redirectURI, responseType: "code"),
            appleID: TestEngine.maria.appleID)
        let account = try #require(try await first.lookUpAccount(appleID: TestEngine.maria.appleID))
        try await first.lifecycle.stopUsing(accountID: account.id, groupID: TestEngine.bundleID)
        try await NotificationDelivery(provider: first, sender: RecordingSender(statuses: [502]), logger: Logger(label: "test"))
            .deliverDueMessages()
        try await shutdownFirst()

        let (second, shutdownSecond) = try await start()
        clock.advance(by: 3600)
        let sender = RecordingSender()
        #expect(try await NotificationDelivery(provider: second, sender: sender, logger: Logger(label: "test")).deliverDueMessages() == 1)
        let (message, attempts) = try await second.newestDelivery()
        #expect(message.deliveredAt != nil)
        #expect(attempts.map(\.status) == [502, 200])
        #expect(message.event.type == .consentRevoked)
        try await shutdownSecond()
    }

    @Test(
        "outside development mode an endpoint on a loopback, private or metadata address is never posted to",
        arguments: ["https://127.0.0.1/apple", "https://[::ffff:127.0.0.1]/apple", "https://169.254.169.254/latest", "https://10.0.0.7/apple"])
    func privateDestinationRefused(endpoint: String) async throws {
        let (server, account, _) = try await TestEngine.authorized { $0.developmentMode = false }
        // Saved before the rule existed, or straight into the store: delivery checks again.
        try await server.arrange.plantNotificationEndpoint(endpoint)
        try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestEngine.bundleID)
        let sender = RecordingSender()
        try await NotificationDelivery(provider: server.provider, sender: sender, logger: Logger(label: "test")).deliverDueMessages()
        #expect(sender.bodies.isEmpty)
        #expect(try await server.provider.newestDelivery().attempts.map(\.error) == ["destination not allowed"])
    }

    @Test("outside development mode the sender is handed the address that was checked, and a name that now resolves to loopback is refused")
    func checkedAddressPinned() async throws {
        let rebound = StaticEndpointAddressResolver(["juice.example.com": [EndpointAddress(ipv4: 127, 0, 0, 1)]])
        for (resolver, pinned) in [(TestEngine.publicJuice, "93.184.216.34"), (rebound, nil)] {
            let server = try await TestEngine.make(endpointResolver: resolver) { $0.developmentMode = false }
            // Straight into the store: with the rebound name the engine would refuse to save it; the point
            // is that delivery checks again.
            try await server.arrange.plantNotificationEndpoint(TestEngine.notificationEndpoint)
            _ = try await server.provider.sendTestNotification(groupID: TestEngine.bundleID, teamID: nil)
            let sender = RecordingSender()
            try await NotificationDelivery(provider: server.provider, sender: sender, logger: Logger(label: "test")).deliverDueMessages()
            #expect(sender.destinations.map(\.address?.text) == (pinned.map { [$0] } ?? []))
            #expect(sender.destinations.allSatisfy { $0.host == "juice.example.com" && $0.url == TestEngine.notificationEndpoint })
        }
    }
}
