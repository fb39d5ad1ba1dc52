import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Testing

extension AppleIDProvider {
    /// The test app group's newest notification and its delivery attempts, oldest first, as the engine
    /// shows them to the team's console.
    package func newestDelivery() async throws -> (message: OutboxMessage, attempts: [DeliveryAttempt]) {
        let log = try await console(team: TestEngine.teamID).deliveries(groupID: TestEngine.bundleID, limit: 1)
        let (message, attempts) = try #require(log.first)
        return (message, attempts)
    }
}
