import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import Dispatch
import Foundation
import RS256Signing
import Synchronization
import Testing

/// Making an RSA key takes about 130 ms of CPU in a release build, more in a debug one, with no
/// suspension point. In `siwa serve` Swift's global executor is the event loops: a key made there
/// (start-up, a rotation) holds every connection of its loop meanwhile; elsewhere it holds a thread of
/// Swift's pool. The ring makes its keys on a Dispatch thread.
@Suite("Signing key ring: keys are made off Swift's pool")
struct SigningKeyGenerationThreadTests {
    /// Hands out fixture keys, each only once the test lets it go; says when one is asked for. It waits
    /// rather than computes, so the other suites of the run keep the cores meanwhile.
    final class HeldKeyFactory: SigningKeyFactory {
        let fixed = FixedSigningKeyFactory(pems: ProviderHarness.keys)
        let release = DispatchSemaphore(value: 0)
        let asked: AsyncStream<Void>.Continuation
        let gaveUp = Atomic(0)

        init(asked: AsyncStream<Void>.Continuation) { self.asked = asked }

        func makePrivateKeyPEM() throws -> String {
            asked.yield()
            if release.wait(timeout: .now() + .seconds(300)) == .timedOut { gaveUp.add(1, ordering: .relaxed) }
            return try fixed.makePrivateKeyPEM()
        }
    }

    /// One ring per thread of Swift's pool (one per core) loading an empty store, each held while it
    /// makes its first key: a task on the global executor still runs. Were the keys made on the pool,
    /// nothing else would run until the holds gave up (after 5 minutes: the other suites may keep the
    /// pool busy long, and the task waits its turn; that is a wait, not a failure).
    @Test("every ring held making a key at once, a task on the global executor still runs")
    func heldKeyGenerationLeavesThePoolFree() async throws {
        let count = ProcessInfo.processInfo.activeProcessorCount
        let (asked, askedContinuation) = AsyncStream.makeStream(of: Void.self)
        let factories = (0..<count).map { _ in HeldKeyFactory(asked: askedContinuation) }
        let loads = factories.map { factory in
            Task.detached {
                try await SigningKeyRing.load(
                    store: MemoryStore(), keyFactory: factory, random: SeededRandomSource(seed: "held"), now: ProviderHarness.now,
                    signer: SwiftCryptoRS256Signer())
            }
        }
        var requests = asked.makeAsyncIterator()
        for _ in 0..<count { await requests.next() }

        let ranMeanwhile = await Task.detached { factories.allSatisfy { $0.gaveUp.load(ordering: .relaxed) == 0 } }.value
        // Each ring makes two keys (active and next): let both go.
        for factory in factories {
            factory.release.signal()
            factory.release.signal()
        }
        for load in loads { #expect(try await load.value.publishedKeyIDs.count == 2) }
        #expect(ranMeanwhile)
        #expect(factories.map { $0.gaveUp.load(ordering: .relaxed) } == Array(repeating: 0, count: count))
    }
}
