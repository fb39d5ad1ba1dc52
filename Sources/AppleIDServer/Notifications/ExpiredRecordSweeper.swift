import AppleIDProvider
import Logging
import ServiceLifecycle

/// Deletes expired codes, access tokens, interactions and browser sessions every `interval`, so the
/// tables do not grow without bound. Codes stay a day past their expiry: a replay is still recognised
/// as one (and revokes what the code issued) rather than as an unknown code.
public struct ExpiredRecordSweeper: Service {
    let provider: AppleIDProvider
    let interval: Duration
    let logger: Logger

    public init(provider: AppleIDProvider, interval: Duration = .seconds(3600), logger: Logger) {
        self.provider = provider
        self.interval = interval
        self.logger = logger
    }

    /// One sweep; returns how many rows went.
    @discardableResult
    public func sweep() async throws -> Int {
        let now = provider.clock.now()
        let removed =
            try await provider.store.purgeExpired(now: now, codesExpiredBefore: now.addingTimeInterval(-86_400))
            + provider.store.purgeConsoleSessions(expiredBefore: now)
        if removed > 0 { logger.info("expired records purged", metadata: ["rows": "\(removed)"]) }
        return removed
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await sweep()
            } catch {
                logger.error("expired-record sweep failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
