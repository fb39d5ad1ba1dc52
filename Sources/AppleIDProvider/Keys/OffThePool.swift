import Dispatch

/// Work with no suspension point that takes long (making an RSA key: about 130 ms, seconds in a debug
/// build), run on a Dispatch thread and awaited. In `siwa serve` Swift's global executor is NIO's event
/// loops, and such work there would hold every connection of its loop; elsewhere it would hold one of
/// the few threads of Swift's pool.
enum OffThePool {
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }
}
