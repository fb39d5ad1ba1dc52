import AppleIDConsole
import AppleIDProvider
import AppleIDRelay
import Logging
import ServiceLifecycle

/// Runs the engine's purge of expired records (``AppleIDProvider/purgeExpiredRecords()``) and the
/// console's (``AppleIDProvider/purgeExpiredConsoleRecords()``) and the relay's of old mail
/// (``MailRelay/purgeExpiredMail()``) every `interval`, so the tables do not
/// grow without bound.
public struct ExpiredRecordSweeper: Service {
    let provider: AppleIDProvider
    let relay: MailRelay
    let interval: Duration
    let logger: Logger

    public init(provider: AppleIDProvider, relay: MailRelay, interval: Duration = .seconds(3600), logger: Logger) {
        self.provider = provider
        self.relay = relay
        self.interval = interval
        self.logger = logger
    }

    /// One sweep; returns how many rows went.
    @discardableResult
    public func sweep() async throws -> Int {
        let removed = try await provider.purgeExpiredRecords() + provider.purgeExpiredConsoleRecords() + relay.purgeExpiredMail()
        if removed > 0 { logger.info("expired records purged", metadata: ["rows": "\(removed)"]) }
        return removed
    }

    public func run() async throws {
        try await PeriodicService(pace: .every(interval), failureMessage: "expired-record sweep failed", logger: logger) {
            try await sweep()
            return false
        }.run()
    }
}
