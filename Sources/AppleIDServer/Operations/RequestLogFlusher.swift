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
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await provider.flushRequestLog()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
        await provider.flushRequestLog()
    }
}
