import AppleIDProtocol
import AppleIDProvider
import Foundation
import ServerTestSupport

/// Set-up for the read-model tests: an Apple ID that many apps of many teams use, and a busy outbox.
enum ManyApps {
    /// Gives `accountID` apps `range`: one team and app group each, a consent, and a relay address.
    static func add(_ range: ClosedRange<Int>, accountID: String, to store: any ProviderStore) async throws {
        for number in range {
            let teamID = TeamID(rawValue: "MANY\(String(format: "%06d", number))")
            let groupID = ClientID(rawValue: "com.example.many\(number)")
            try await store.save(DeveloperTeam(id: teamID, name: "Team \(number)"))
            try await store.save(AppGroup(primaryAppID: groupID, teamID: teamID, displayName: "App \(number)"))
            let relay = "many\(number)@privaterelay.example.com"
            try await store.save(
                TeamIdentity(accountID: accountID, teamID: teamID, subject: Subject(rawValue: "000\(number).many.0001"), relayAddress: relay))
            try await store.save(
                Consent(accountID: accountID, groupID: groupID, grantedAt: Fixtures.now, scopes: [.email], email: relay, isPrivateEmail: true))
        }
    }

    /// Queues `count` pending notifications of the test server's app group, each with one failed attempt.
    static func queueMessages(_ range: ClosedRange<Int>, to store: any ProviderStore) async throws {
        for number in range {
            let message = OutboxMessage(
                id: "message-\(number)", groupID: TestServer.bundleID, audience: TestServer.bundleID,
                event: NotificationEvent(type: .consentRevoked, subject: "000\(number).many.0001", eventTime: 1_000 * Int64(number)),
                createdAt: Fixtures.now.addingTimeInterval(Double(number)))
            try await store.enqueue(message)
            var attempted = message
            attempted.attempts = 1
            try await store.record(
                DeliveryAttempt(
                    messageID: message.id, attemptedAt: Fixtures.now, status: 500, latencyMilliseconds: 3, error: nil, endpoint: "https://x.example"),
                updating: attempted)
        }
    }
}
