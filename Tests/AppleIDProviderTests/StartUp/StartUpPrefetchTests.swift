import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Synchronization
import Testing

/// The work a first start begins ahead of time: the signing key and the demo passwords' hashes.
@Suite struct StartUpPrefetchTests {
    /// Hands out numbered keys and counts the calls.
    final class CountingKeyFactory: SigningKeyFactory {
        let calls = Mutex(0)
        func makePrivateKeyPEM() throws -> String {
            let number = calls.withLock { calls in
                calls += 1
                return calls
            }
            return "key \(number)"
        }
    }

    @Test("the first key is generated when the factory is made, and handed out once; later keys are new")
    func prefetchedKeyOnce() throws {
        let generator = CountingKeyFactory()
        let factory = PrefetchingSigningKeyFactory(generator: generator)
        #expect(try factory.makePrivateKeyPEM() == "key 1")
        #expect(try factory.makePrivateKeyPEM() == "key 2")
        #expect(try factory.makePrivateKeyPEM() == "key 3")
        #expect(generator.calls.withLock { $0 } == 3)
    }

    @Test("a first start with the prefetching factory publishes the key it generated ahead")
    func providerStartsWithPrefetchedKey() async throws {
        func start(_ factory: any SigningKeyFactory) async throws -> AppleIDProvider {
            try await AppleIDProvider.start(
                configuration: ProviderConfiguration(issuer: "https://id.example.com"), storage: .store(MemoryStore()),
                clock: ManualClock(ProviderHarness.now), random: SeededRandomSource(seed: "prefetch"), keyFactory: factory)
        }
        let prefetched = try await start(PrefetchingSigningKeyFactory(generator: FixedSigningKeyFactory(pems: Array(ProviderHarness.keys.prefix(2)))))
        let direct = try await start(FixedSigningKeyFactory(pems: Array(ProviderHarness.keys.prefix(2))))
        #expect(prefetched.keyRing.publishedKeySetJSON == direct.keyRing.publishedKeySetJSON)
        let other = try await start(FixedSigningKeyFactory(pems: Array(ProviderHarness.keys[2..<4])))
        #expect(prefetched.keyRing.publishedKeySetJSON != other.keyRing.publishedKeySetJSON)
    }

    @Test("prefetched password hashes verify, are each taken once, and leave the seeded draws as they were")
    func prefetchedHashes() async throws {
        func start() async throws -> AppleIDProvider {
            var configuration = ProviderConfiguration(issuer: "https://id.example.com")
            configuration.passwordHashCost = 4
            return try await AppleIDProvider.start(
                configuration: configuration, storage: .store(MemoryStore()), clock: ManualClock(ProviderHarness.now),
                random: SeededRandomSource(seed: "prefetch"), keyFactory: FixedSigningKeyFactory(pems: Array(ProviderHarness.keys.prefix(2))))
        }
        let prefetching = try await start()
        prefetching.prefetchPasswordHashes(["first password", "second password"])
        let first = try await prefetching.createAccount(appleID: "a@example.com", password: "first password", firstName: "A", lastName: "A")
        let second = try await prefetching.createAccount(appleID: "b@example.com", password: "second password", firstName: "B", lastName: "B")
        // Same password again: the prefetched hash was taken, so this one is made anew (another salt).
        let third = try await prefetching.createAccount(appleID: "c@example.com", password: "first password", firstName: "C", lastName: "C")
        #expect(await Credentials.verifyPassword("first password", hash: first.passwordHash))
        #expect(await Credentials.verifyPassword("second password", hash: second.passwordHash))
        #expect(await Credentials.verifyPassword("first password", hash: third.passwordHash))
        #expect(first.passwordHash != third.passwordHash)
        #expect(await !Credentials.verifyPassword("second password", hash: first.passwordHash))

        let plain = try await start()
        let plainFirst = try await plain.createAccount(appleID: "a@example.com", password: "first password", firstName: "A", lastName: "A")
        #expect(plainFirst.id == first.id)
        #expect(plainFirst.totpSecret == first.totpSecret)
    }
}
