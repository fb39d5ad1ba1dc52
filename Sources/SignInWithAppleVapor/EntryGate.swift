/// One operation at a time per key: what makes a cache's check-then-act (`get`, then `set` or
/// `delete`) atomic between the tasks of this process. Waiters are let in in arrival order; the key
/// stays held while it is handed from one to the next.
actor EntryGate {
    private var held: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Runs `body` while no other call for `key` runs.
    func run<T: Sendable>(_ key: String, _ body: @Sendable () async throws -> T) async throws -> T {
        await enter(key)
        do {
            let result = try await body()
            leave(key)
            return result
        } catch {
            leave(key)
            throw error
        }
    }

    private func enter(_ key: String) async {
        guard held.contains(key) else {
            held.insert(key)
            return
        }
        await withCheckedContinuation { waiting[key, default: []].append($0) }
    }

    private func leave(_ key: String) {
        guard var queue = waiting[key], !queue.isEmpty else {
            held.remove(key)
            return
        }
        let next = queue.removeFirst()
        waiting[key] = queue.isEmpty ? nil : queue
        next.resume()  // the key stays held: it passes to `next`
    }
}
