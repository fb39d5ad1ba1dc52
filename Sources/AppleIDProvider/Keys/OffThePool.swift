import Foundation

/// Work with no suspension point that takes long (making an RSA key: about 130 ms, longer in a debug
/// build), run on a thread of its own and awaited. In `siwa serve` Swift's global executor is NIO's
/// event loops, and such work there would hold every connection of its loop; elsewhere it would hold
/// one of the few threads of Swift's pool. Not `DispatchQueue.global()`: on Linux Swift's pool is
/// Dispatch's default root queue, one thread per core, so work sent there still takes a thread of it.
enum OffThePool {
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.name = "siwa.off-the-pool"
            thread.start()
        }
    }
}
