import AppleIDProvider
import AsyncHTTPClient
import Logging
import ServiceLifecycle

/// Runs a ``NotificationDelivery`` pass every `interval` until graceful shutdown (a ``PeriodicService``). A pass that waits on
/// a slow endpoint does not hold back the next one: passes overlap (at most
/// `maximumConcurrentPasses`), so another team's new message goes out within an interval.
public struct NotificationDeliveryService: Service {
    let delivery: NotificationDelivery
    let interval: Duration
    let maximumConcurrentPasses: Int

    public init(delivery: NotificationDelivery, interval: Duration = .seconds(1), maximumConcurrentPasses: Int = 16) {
        self.delivery = delivery
        self.interval = interval
        self.maximumConcurrentPasses = maximumConcurrentPasses
    }

    public func run() async throws {
        let delivery = self.delivery
        try await PeriodicService(
            pace: .every(interval), maximumConcurrentPasses: maximumConcurrentPasses, failureMessage: "notification delivery pass failed",
            logger: delivery.logger,
            // Leases of an interrupted pass go back now rather than when they run out.
            afterShutdown: { try? await delivery.releaseLeases() },
            pass: {
                try await delivery.deliverDueMessages()
                return false
            }
        ).run()
    }
}
