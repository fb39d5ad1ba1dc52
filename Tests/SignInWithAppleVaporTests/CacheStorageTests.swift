import Foundation
import SignInWithApple
import SignInWithAppleTesting
import SignInWithAppleVapor
import Testing
import VaporTesting

@Suite("Vapor cache storage for the kit")
struct CacheStorageTests {
    @Test("Vapor's memory cache passes the storage conformance checks (its take is not atomic, as documented)")
    func conformance() async throws {
        try await withApp { app in
            try await StorageConformance.check(CacheSignInWithAppleStorage(cache: app.cache, prefix: "siwa:"), atomicTake: false)
        }
    }
}
