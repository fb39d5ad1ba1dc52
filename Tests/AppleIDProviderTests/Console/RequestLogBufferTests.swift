import AppleIDProtocol
import AppleIDProvider
import Foundation
import Synchronization
import Testing

@testable import AppleIDConsole

@Suite("Request log buffer: a flush waits for the batches drained before it")
struct RequestLogBufferTests {
    static let entry = RequestLogEntry(clientID: "com.example.web", endpoint: .token, at: Date(timeIntervalSince1970: 0), outcome: "ok", reason: "")

    @Test("with no batch being written, the wait returns at once; an empty buffer drains nothing")
    func nothingToWaitFor() async {
        let buffer = RequestLogBuffer(capacity: 10)
        #expect(buffer.drain() == nil)
        await buffer.waitForBatchesDrainedSoFar()
        #expect(!buffer.append(Self.entry))
        let batch = buffer.drain()
        #expect(batch?.entries == [Self.entry])
        buffer.written(batch?.number ?? -1)
        await buffer.waitForBatchesDrainedSoFar()
    }

    @Test("the wait ends only when every earlier batch is written, whatever order they finish in")
    func waitsForEveryEarlierBatch() async throws {
        let buffer = RequestLogBuffer(capacity: 10)
        _ = buffer.append(Self.entry)
        let first = try #require(buffer.drain())
        _ = buffer.append(Self.entry)
        let second = try #require(buffer.drain())
        let done = Mutex(false)
        let waiter = Task {
            await buffer.waitForBatchesDrainedSoFar()
            done.withLock { $0 = true }
        }
        while buffer.waitingFlushes == 0 { await Task.yield() }
        buffer.written(second.number)
        #expect(buffer.waitingFlushes == 1, "the first batch is still being written")
        #expect(!done.withLock { $0 })
        // A batch drained after the wait began is not waited for.
        _ = buffer.append(Self.entry)
        let third = try #require(buffer.drain())
        buffer.written(first.number)
        await waiter.value
        #expect(done.withLock { $0 })
        #expect(buffer.waitingFlushes == 0)
        buffer.written(third.number)
    }
}
