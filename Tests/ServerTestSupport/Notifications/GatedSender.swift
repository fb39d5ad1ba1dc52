import AppleIDProvider
import Foundation
import Synchronization

/// A notification endpoint per URL: posts to `hangingURL` never answer until the gate opens (then
/// fail like a timeout); every other URL answers 200 at once. Each answered post is announced on
/// `answered`, so a test awaits what it expects instead of sleeping.
package final class GatedSender: NotificationSender {
    package struct Timeout: Error {}
    private struct State {
        var open = false
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
        var started: [String] = []
        var finished: [String] = []
    }

    package let hangingURL: String
    package let answered: AsyncStream<String>
    private let announce: AsyncStream<String>.Continuation
    private let state = Mutex(State())

    package init(hangingURL: String) {
        self.hangingURL = hangingURL
        (answered, announce) = AsyncStream<String>.makeStream()
    }

    package func started(_ url: String) -> Int { state.withLock { $0.started.filter { $0 == url }.count } }
    package func finished(_ url: String) -> Int { state.withLock { $0.finished.filter { $0 == url }.count } }

    /// Lets every hanging post (and every later one) fail at once.
    package func openGate() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    package func post(_ body: [UInt8], to destination: NotificationDestination, timeout: TimeInterval) async throws -> Int {
        let url = destination.url
        state.withLock { $0.started.append(url) }
        defer {
            state.withLock { $0.finished.append(url) }
            announce.yield(url)
        }
        guard url == hangingURL else { return 200 }
        await waitForGate()
        throw Timeout()
    }

    /// Suspends until ``openGate()`` or cancellation (a test over its time limit).
    private func waitForGate() async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.open || Task.isCancelled { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }
}
