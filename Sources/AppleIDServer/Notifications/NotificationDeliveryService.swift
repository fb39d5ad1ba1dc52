import AppleIDProvider
import AsyncHTTPClient
import Logging
import ServiceLifecycle

/// Runs a ``NotificationDelivery`` pass every `interval` until graceful shutdown. A pass that waits on
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
        await withTaskGroup(of: Void.self) { passes in
            // Passes not yet collected; at the bound, the loop waits for one to end (finished ones first).
            var unfinished = 0
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                if unfinished == maximumConcurrentPasses, await passes.next() != nil { unfinished -= 1 }
                passes.addTask { await pass() }
                unfinished += 1
                // A graceful shutdown cancels the wait at once; passes under way finish (within the request timeout).
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            }
        }
        // Leases of an interrupted pass go back now rather than when they run out.
        try? await delivery.releaseLeases()
    }

    private func pass() async {
        do {
            try await delivery.deliverDueMessages()
        } catch {
            delivery.logger.error("notification delivery pass failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
    }
}
