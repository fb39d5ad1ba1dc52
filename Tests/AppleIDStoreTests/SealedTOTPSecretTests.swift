import AppleIDProvider
import Foundation
import SQLKit
import Testing

@testable import AppleIDStore

/// Security audit finding 9: TOTP secrets are sealed at rest like the signing keys.
@Suite("TOTP secrets sealed at rest (AES-256-GCM, bound to the account)")
struct SealedTOTPSecretTests {
    static func storedSecret(_ store: SQLStore, id: String) async throws -> String {
        try #require(
            try await store.db.select().column("totp_secret").from("accounts").where("id", .equal, id).first()?
                .decode(column: "totp_secret", as: String.self))
    }

    @Test("the column holds no secret; the account reads back whole; secrets stored in clear are sealed at the next start")
    func sealed() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("accounts.sqlite").path
            let account = Fixture.account()
            try await SealedSigningKeyTests.open(path, nil) { store in
                try await store.save(account)
                #expect(try await Self.storedSecret(store, id: account.id) == account.totpSecret, "no storage key: stored as it is")
            }
            let sealer = try SecretSealer(keyBytes: SecretSealer.newKeyBytes())
            try await SealedSigningKeyTests.open(path, sealer) { store in
                let column = try await Self.storedSecret(store, id: account.id)
                #expect(column.hasPrefix("sealed:v1:"), "sealed at the start with a storage key")
                #expect(!column.contains(account.totpSecret))
                #expect(try await store.account(id: account.id)?.totpSecret == account.totpSecret)
                var changed = account
                changed.firstName = "Janet"
                try await store.save(changed)
                #expect(try await Self.storedSecret(store, id: account.id).hasPrefix("sealed:v1:"), "a later save seals too")
            }
            await #expect(throws: SealingError.noKey("the TOTP secret of account acct-1")) {
                try await SealedSigningKeyTests.open(path, nil) { try await $0.account(id: account.id) }
            }
        }
    }
}
