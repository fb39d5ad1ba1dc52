import AppleIDProvider
import AsyncHTTPClient
import Logging
import ServiceLifecycle

/// Runs ``NotificationDelivery`` every `interval` until graceful shutdown.
public struct NotificationDeliveryService: Service {
    let delivery: NotificationDelivery
    let interval: Duration

    public init(delivery: NotificationDelivery, interval: Duration = .seconds(1)) {
        self.delivery = delivery
        self.interval = interval
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await delivery.deliverDueMessages()
            } catch {
                delivery.logger.error("notification delivery pass failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            }
            // A graceful shutdown cancels the wait at once.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
        // Leases of an interrupted pass go back now rather than when they run out.
        try? await delivery.releaseLeases()
    }
}
