/// How many PostgreSQL test stores are open at once. Swift Testing runs every test of the suite
/// concurrently, and with the organization and relay conformance tests the stores' pools (4 each)
/// opened more than PostgreSQL's default 100 connections in a full run (`53300`, "remaining
/// connection slots are reserved"). A store waits here for its turn instead.
actor PostgresTestStoreLimit {
    static let shared = PostgresTestStoreLimit(open: 12)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(open: Int) { free = open }

    /// Runs `body` while holding one of the places.
    nonisolated func withPlace<T>(_ body: () async throws -> T) async throws -> T {
        await take()
        do {
            let result = try await body()
            await give()
            return result
        } catch {
            await give()
            throw error
        }
    }

    private func take() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func give() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
