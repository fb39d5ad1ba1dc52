import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

extension StoreConformanceTests {
    @Test("50 concurrent sign-in attempts: exactly the attempts before the lock are admitted", arguments: StoreKind.available)
    func signInAttemptsUnderConcurrency(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let policy = SignInLockPolicy()
            let admissions = try await withThrowingTaskGroup(of: SignInAdmission.self) { group in
                for _ in 0..<50 { group.addTask { try await store.admitSignInAttempt(accountID: "acct-1", now: Fixture.t0, policy: policy) } }
                var admissions: [SignInAdmission] = []
                for try await admission in group { admissions.append(admission) }
                return admissions
            }
            let admitted = admissions.compactMap { if case .admitted(let attempt) = $0 { attempt } else { nil } }
            #expect(admitted.sorted() == Array(1...policy.backoffFrom), "attempt \(policy.backoffFrom) locks before it is checked")
            let lockedUntil = Fixture.t0.addingTimeInterval(policy.backoffStep)
            #expect(admissions.filter { $0 == .locked(until: lockedUntil) }.count == 50 - policy.backoffFrom)
        }
    }

    @Test("the lock grows with each attempt after it lifts, then locks out; a refund lifts it; clearing starts again", arguments: StoreKind.available)
    func signInLockSchedule(kind: StoreKind) async throws {
        try await kind.withStore { store in
            var policy = SignInLockPolicy()
            policy.backoffFrom = 2
            policy.lockoutFrom = 4
            var now = Fixture.t0
            func admit() async throws -> SignInAdmission { try await store.admitSignInAttempt(accountID: "a", now: now, policy: policy) }
            #expect(try await admit() == .admitted(attempt: 1))
            #expect(try await admit() == .admitted(attempt: 2))
            #expect(try await admit() == .locked(until: now.addingTimeInterval(60)))
            now = now.addingTimeInterval(60)
            #expect(try await admit() == .admitted(attempt: 3))
            #expect(try await admit() == .locked(until: now.addingTimeInterval(120)))
            now = now.addingTimeInterval(120)
            #expect(try await admit() == .admitted(attempt: 4))
            #expect(try await admit() == .locked(until: now.addingTimeInterval(policy.lockoutDuration)))
            try await store.refundSignInAttempt(accountID: "a")
            #expect(try await admit() == .admitted(attempt: 4), "the refund gave back the count and lifted the lock that attempt set")
            try await store.clearSignInAttempts(accountID: "a")
            #expect(try await store.admitSignInAttempt(accountID: "a", now: now, policy: policy) == .admitted(attempt: 1))
            #expect(try await store.admitSignInAttempt(accountID: "b", now: now, policy: policy) == .admitted(attempt: 1), "per account")
        }
    }

    @Test("a two-factor step is accepted once; an earlier step after a later one is refused", arguments: StoreKind.available)
    func secondFactorStepOnce(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<20 { group.addTask { try await store.acceptSecondFactorStep(59_000_000, accountID: "a") } }
                var results: [Bool] = []
                for try await result in group { results.append(result) }
                return results
            }
            #expect(results.filter { $0 }.count == 1)
            #expect(try await store.acceptSecondFactorStep(58_999_999, accountID: "a") == false)
            #expect(try await store.acceptSecondFactorStep(59_000_001, accountID: "a"))
            try await store.clearSignInAttempts(accountID: "a")
            #expect(try await store.acceptSecondFactorStep(59_000_001, accountID: "a") == false, "clearing the count keeps the step")
        }
    }
}
