import AppleIDButtons
import Foundation

/// What draws one button as a PNG: ``ButtonRenderer`` (an actor, so one image at a time), or a
/// stand-in in tests.
protocol ButtonImageRendering: Sendable {
    func png(_ spec: ButtonSpec) async throws -> [UInt8]
}

extension ButtonRenderer: ButtonImageRendering {}

/// Renders cache misses on a pool of renderers, at most one image per renderer at a time, with a
/// bounded number of requests waiting for one. Every new parameter set is a miss, so without a
/// bound a flood of them keeps the renderers busy and a normal button waits behind it; beyond the
/// bound a request is refused at once (503 with `Retry-After`) instead of joining the queue.
actor ButtonRenderQueue {
    /// More requests than the renderers and the waiting room hold.
    struct Busy: Error {}

    private let renderers: [any ButtonImageRendering]
    let waitingLimit: Int
    private var idle: [Int]
    private var waiting: [CheckedContinuation<Int, Never>] = []
    /// Told the number of waiting requests whenever it changes (tests follow the queue by it).
    private let waitingChanged: @Sendable (Int) -> Void

    /// One renderer per core by default: each renders on its own, so misses render concurrently up
    /// to the core count.
    init(renderers: [any ButtonImageRendering], waitingLimit: Int, waitingChanged: @escaping @Sendable (Int) -> Void = { _ in }) {
        precondition(!renderers.isEmpty, "a render queue needs a renderer")
        self.renderers = renderers
        self.waitingLimit = waitingLimit
        self.idle = Array(renderers.indices.reversed())
        self.waitingChanged = waitingChanged
    }

    /// The PNG of `spec`, rendered as soon as a renderer is free; ``Busy`` when the waiting room is full.
    func png(_ spec: ButtonSpec) async throws -> [UInt8] {
        let index = try await acquire()
        defer { release(index) }
        return try await renderers[index].png(spec)
    }

    private func acquire() async throws -> Int {
        if let index = idle.popLast() { return index }
        guard waiting.count < waitingLimit else { throw Busy() }
        return await withCheckedContinuation { continuation in
            waiting.append(continuation)
            waitingChanged(waiting.count)
        }
    }

    /// Hands the renderer to the longest-waiting request, or marks it idle.
    private func release(_ index: Int) {
        guard !waiting.isEmpty else {
            idle.append(index)
            return
        }
        let next = waiting.removeFirst()
        waitingChanged(waiting.count)
        next.resume(returning: index)
    }
}
