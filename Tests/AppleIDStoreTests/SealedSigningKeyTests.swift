import AppleIDProvider
import Foundation
import SQLKit
import Testing

@testable import AppleIDStore

@Suite("Signing keys sealed at rest (AES-256-GCM, bound to the row)")
struct SealedSigningKeyTests {
    static let pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"
    static let key = SigningKeyRecord(id: "k-1", privateKeyPEM: pem, state: .active, createdAt: Fixture.t0)

    static func open<R>(_ path: String, _ sealer: SecretSealer?, _ body: (SQLStore) async throws -> R) async throws -> R {
        let (store, shutdown) = try await SQLStore.sqlite(path: path, logger: testLogger, sealer: sealer)
        do {
            let result = try await body(store)
            try await shutdown()
            return result
        } catch {
            try await shutdown()
            throw error
        }
    }

    static func storedColumn(_ store: SQLStore, id: String) async throws -> String {
        try #require(
            try await store.db.select().column("private_key_pem").from("signing_keys").where("id", .equal, id).first()?
                .decode(column: "private_key_pem", as: String.self))
    }

    @Test("the column holds no PEM; the same storage key reads it back; another key or none is refused")
    func sealedRoundTrip() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("keys.sqlite").path
            let sealer = try SecretSealer(keyBytes: SecretSealer.newKeyBytes())
            try await Self.open(path, sealer) { store in
                try await store.save(Self.key)
                let column = try await Self.storedColumn(store, id: "k-1")
                #expect(column.hasPrefix("sealed:v1:"))
                #expect(!column.contains("PRIVATE KEY"))
            }
            let reopened = try await Self.open(path, sealer) { try await $0.signingKeys() }
            #expect(reopened == [Self.key])
            let other = try SecretSealer(keyBytes: SecretSealer.newKeyBytes())
            await #expect(throws: SealingError.cannotOpen("k-1")) { try await Self.open(path, other) { try await $0.signingKeys() } }
            await #expect(throws: SealingError.noKey("signing key k-1")) { try await Self.open(path, nil) { try await $0.signingKeys() } }
        }
    }

    @Test("keys stored in clear before sealing was turned on are sealed at the next start")
    func legacyKeysAreSealed() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("keys.sqlite").path
            try await Self.open(path, nil) { store in
                try await store.save(Self.key)
                let column = try await Self.storedColumn(store, id: "k-1")
                #expect(column == Self.pem)
            }
            let sealer = try SecretSealer(keyBytes: SecretSealer.newKeyBytes())
            try await Self.open(path, sealer) { store in
                let column = try await Self.storedColumn(store, id: "k-1")
                #expect(column.hasPrefix("sealed:v1:"))
                let keys = try await store.signingKeys()
                #expect(keys == [Self.key])
                let resealed = try await store.sealPlaintextSigningKeys()
                #expect(resealed == 0)
            }
        }
    }

    @Test("a sealed value moved to another row does not open there")
    func boundToRow() async throws {
        let sealer = try SecretSealer(keyBytes: SecretSealer.newKeyBytes())
        let sealed = try sealer.seal(Self.pem, boundTo: "k-1")
        #expect(try sealer.open(sealed, boundTo: "k-1") == Self.pem)
        #expect(throws: SealingError.cannotOpen("k-2")) { try sealer.open(sealed, boundTo: "k-2") }
        #expect(throws: SealingError.wrongKeySize(16)) { try SecretSealer(keyBytes: Array(repeating: 0, count: 16)) }
    }
}
