import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

@testable import AppleIDStore

extension TransactionFailureTests {
    @Test("an operator's new password whose lifted lock fails to write leaves the old password", arguments: StoreKind.sqlKinds)
    func passwordWithLiftedLock(kind: StoreKind) async throws {
        try await kind.withSQLStore { store in
            let account = Fixture.account()
            try await store.save(account)
            var changed = account
            changed.passwordHash = "$2b$12$new"
            await #expect(throws: InjectedFailure.self) { try await store.failingStatement(2).save(changed, clearingSignInAttempts: true) }
            #expect(try await store.account(id: account.id)?.passwordHash == account.passwordHash)
        }
    }
}
