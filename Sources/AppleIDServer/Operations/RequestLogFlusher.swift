import AppleIDProvider
import ServiceLifecycle

/// Writes the request log's batch every `interval` and once more at shutdown, after the HTTP server
/// has drained (services shut down in the reverse of their order, and the server is the last), so the
/// Requests page of other instances is at most `interval` behind and a graceful stop loses nothing.
public struct RequestLogFlusher: Service {
    let provider: AppleIDProvider
    let interval: Duration

    public init(provider: AppleIDProvider, interval: Duration = .milliseconds(250)) {
        self.provider = provider
        self.interval = interval
    }

    public func run() async throws {
        let provider = self.provider
        try await PeriodicService(
            pace: .every(interval), failureMessage: "request log flush failed", logger: provider.logger,
            afterShutdown: { await provider.flushRequestLog() },
            pass: {
                await provider.flushRequestLog()
                return false
            }
        ).run()
    }
}
