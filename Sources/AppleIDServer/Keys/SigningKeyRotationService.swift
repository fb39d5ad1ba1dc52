import AppleIDProvider
import Logging
import ServiceLifecycle

/// Rotates the signing keys on the provider's schedule and keeps this instance's `/auth/keys` in step
/// with the store: every `interval` it rotates if the keys are due (one instance wins when several
/// try) and reads the key ring again, so that all instances publish the same keys within one
/// interval of a rotation made anywhere.
public struct SigningKeyRotationService: Service {
    let provider: AppleIDProvider
    let interval: Duration
    let logger: Logger

    public init(provider: AppleIDProvider, interval: Duration = .seconds(10), logger: Logger) {
        self.provider = provider
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        try await PeriodicService(pace: .every(interval), failureMessage: "signing key check failed", logger: logger) {
            await checkOnce()
            return false
        }.run()
    }

    /// One check: rotate if due, then reload. A failure (the database is away) is logged and the
    /// ring keeps the keys it has.
    public func checkOnce() async {
        do {
            try await provider.rotateSigningKeysIfDue()
        } catch {
            logger.error("signing key check failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
    }
}
