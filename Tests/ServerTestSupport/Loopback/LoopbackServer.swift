import Hummingbird
import Logging

/// Runs `listener` for the time of `body`, which gets the port it listens on: `listener` is given
/// the closure to call with that port once it listens (a free one, asked for as port 0).
package func whileListening<T: Sendable>(
    _ listener: @escaping @Sendable (_ onListening: @escaping @Sendable (Int) -> Void) async throws -> Void, _ body: (Int) async throws -> T
) async throws -> T {
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            try await listener { port in
                continuation.yield(port)
                continuation.finish()
            }
            return nil
        }
        var port = 0
        for await value in ports { port = value }
        let result = try await body(port)
        group.cancelAll()
        return result
    }
}

/// Runs `router` on 127.0.0.1 (a free port) for the time of `body`, which gets the port.
package enum LoopbackServer {
    package static func run<T: Sendable>(_ router: Router<BasicRequestContext>, _ body: (Int) async throws -> T) async throws -> T {
        let responder = router.buildResponder()
        return try await whileListening(
            { onListening in
                let app = Application(
                    responder: responder, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { onListening($0.localAddress?.port ?? 0) }, logger: Logger(label: "loopback"))
                try await app.runService(gracefulShutdownSignals: [])
            }, body)
    }

    /// A port on 127.0.0.1 where nothing listens any more: a server was there and stopped.
    package static func closedPort() async throws -> Int {
        try await run(Router()) { $0 }
    }
}
