import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

extension StoreConformanceTests {
    @Test("failed attempts are counted atomically: 30 concurrent failures count 30, each seeing its own number", arguments: StoreKind.available)
    func failedAttemptsUnderConcurrency(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.save(Fixture.interaction())
            let counts = try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<30 { group.addTask { try await store.recordFailedAttempt(interactionID: "ix-1") } }
                var counts: [Int] = []
                for try await count in group { counts.append(try #require(count)) }
                return counts
            }
            #expect(counts.sorted() == Array(1...30))
            #expect(try await store.interaction(id: "ix-1")?.failedAttempts == 30)
            #expect(try await store.recordFailedAttempt(interactionID: "gone") == nil)
        }
    }
}
