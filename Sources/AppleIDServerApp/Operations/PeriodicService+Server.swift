import AppleIDConsole
import AppleIDProvider
import AppleIDRelay
import Logging

/// The server's background work, each a ``PeriodicService`` over one operation of the engine or the relay.
extension PeriodicService {
    /// A ``NotificationDelivery`` pass every `interval`. A pass that waits on a slow endpoint does not
    /// hold back the next one: passes overlap (at most `maximumConcurrentPasses`), so another team's new
    /// message goes out within an interval. At shutdown the leases of an interrupted pass go back at
    /// once rather than when they run out.
    public static func notificationDelivery(
        _ delivery: NotificationDelivery, interval: Duration = .seconds(1), maximumConcurrentPasses: Int = 16
    ) -> PeriodicService {
        PeriodicService(
            pace: .every(interval), maximumConcurrentPasses: maximumConcurrentPasses, failureMessage: "notification delivery pass failed",
            logger: delivery.logger, afterShutdown: { try? await delivery.releaseLeases() },
            pass: {
                try await delivery.deliverDueMessages()
                return false
            })
    }

    /// The engine's purge of expired records (``AppleIDProvider/purgeExpiredRecords()``), the
    /// console's (``AppleIDProvider/purgeExpiredConsoleRecords()``) and the relay's of old mail
    /// (``MailRelay/purgeExpiredMail()``) every `interval`, so the tables do not grow without bound.
    public static func expiredRecordSweep(
        provider: AppleIDProvider, relay: MailRelay, interval: Duration = .seconds(3600), logger: Logger
    ) -> PeriodicService {
        PeriodicService(pace: .every(interval), failureMessage: "expired-record sweep failed", logger: logger) {
            let removed = try await provider.purgeExpiredRecords() + provider.purgeExpiredConsoleRecords() + relay.purgeExpiredMail()
            if removed > 0 { logger.info("expired records purged", metadata: ["rows": "\(removed)"]) }
            return false
        }
    }

    /// The request log's batch written every `interval` and once more at shutdown, after the HTTP
    /// server has drained (services shut down in the reverse of their order, and the server is the
    /// last), so the Requests page of other instances is at most `interval` behind and a graceful stop
    /// loses nothing.
    public static func requestLogFlush(provider: AppleIDProvider, interval: Duration = .milliseconds(250)) -> PeriodicService {
        PeriodicService(
            pace: .every(interval), failureMessage: "request log flush failed", logger: provider.logger,
            afterShutdown: { await provider.flushRequestLog() },
            pass: {
                await provider.flushRequestLog()
                return false
            })
    }

    /// Every `interval`: rotate the signing keys if the provider's schedule says so (one instance wins
    /// when several try), then read the key ring again, so that all instances publish the same keys
    /// within one interval of a rotation made anywhere. A failed check (the database is away) is logged
    /// and the ring keeps the keys it has.
    public static func signingKeyCheck(provider: AppleIDProvider, interval: Duration = .seconds(10), logger: Logger) -> PeriodicService {
        PeriodicService(pace: .every(interval), failureMessage: "signing key check failed", logger: logger) {
            try await provider.rotateSigningKeysIfDue()
            return false
        }
    }
}
