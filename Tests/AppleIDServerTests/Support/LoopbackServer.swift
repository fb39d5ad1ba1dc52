import Hummingbird
import Logging

/// Runs `router` on 127.0.0.1 (a free port) for the time of `body`, which gets the port.
enum LoopbackServer {
    static func run<T: Sendable>(_ router: Router<BasicRequestContext>, _ body: (Int) async throws -> T) async throws -> T {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: Logger(label: "loopback"))
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await app.runService(gracefulShutdownSignals: [])
                return nil
            }
            var port = 0
            for await value in ports { port = value }
            let result = try await body(port)
            group.cancelAll()
            return result
        }
    }

    /// A port on 127.0.0.1 where nothing listens any more: a server was there and stopped.
    static func closedPort() async throws -> Int {
        try await run(Router()) { $0 }
    }
}
