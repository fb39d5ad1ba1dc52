import AppleIDButtons
import AppleIDProvider
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import AppleIDServer
@testable import AppleIDServerApp

/// A renderer that reports each start and holds every render until the gate opens: the queue's
/// bound is then followed by counters and events, with no clock.
struct GatedRenderer: ButtonImageRendering {
    actor Gate {
        private var isOpen = false
        private var held: [CheckedContinuation<Void, Never>] = []
        private(set) var renders = 0

        func pass() async {
            renders += 1
            guard !isOpen else { return }
            await withCheckedContinuation { held.append($0) }
        }

        func open() {
            isOpen = true
            for continuation in held { continuation.resume() }
            held = []
        }
    }

    let gate: Gate
    let started: AsyncStream<Void>.Continuation

    func png(_ spec: ButtonSpec) async throws -> [UInt8] {
        started.yield()
        await gate.pass()
        return [UInt8(spec.width % 256)]
    }
}

@Suite("Button render queue: bounded, concurrent, gallery pre-rendered")
struct ButtonRenderQueueTests {
    /// Every count of waiting requests the queue reported, in order; `value(at:)` waits for the n-th.
    final class History: Sendable {
        private let state = Mutex<(values: [Int], waiters: [(index: Int, continuation: CheckedContinuation<Int, Never>)])>(([], []))

        func record(_ value: Int) {
            let ready = state.withLock { state in
                state.values.append(value)
                let ready = state.waiters.filter { $0.index < state.values.count }
                state.waiters.removeAll { $0.index < state.values.count }
                return ready.map { ($0.continuation, state.values[$0.index]) }
            }
            for (continuation, value) in ready { continuation.resume(returning: value) }
        }

        func value(at index: Int) async -> Int {
            await withCheckedContinuation { continuation in
                let known = state.withLock { state in
                    if index < state.values.count { return state.values[index] as Int? }
                    state.waiters.append((index, continuation))
                    return nil
                }
                if let known { continuation.resume(returning: known) }
            }
        }
    }

    /// Two renderers behind one gate, a waiting room of `waitingLimit`, and what follows them.
    static func queue(waitingLimit: Int) -> (ButtonRenderQueue, GatedRenderer.Gate, AsyncStream<Void>, History) {
        let gate = GatedRenderer.Gate()
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let waiting = History()
        let renderers: [any ButtonImageRendering] = (0..<2).map { _ in GatedRenderer(gate: gate, started: startedContinuation) }
        let queue = ButtonRenderQueue(renderers: renderers, waitingLimit: waitingLimit, waitingChanged: { waiting.record($0) })
        return (queue, gate, started, waiting)
    }

    @Test("misses render on every renderer at once; beyond the waiting room the image endpoint answers 503 with Retry-After")
    func boundedQueue() async throws {
        let (queue, gate, started, waiting) = Self.queue(waitingLimit: 1)
        let router = Router(context: AppleIDRequestContext.self)
        ButtonEndpoints(
            images: ButtonImages(cache: ButtonImageCache(), queue: queue), pages: try await PageRenderer.load(),
            random: SeededRandomSource(seed: "buttons")
        )
        .register(on: router)
        try await Application(router: router).test(.router) { client in
            async let first = client.execute(uri: "/appleid/button?width=141", method: .get)
            async let second = client.execute(uri: "/appleid/button?width=142", method: .get)
            var starts = started.makeAsyncIterator()
            _ = await starts.next()
            _ = await starts.next()  // both renderers busy at once: misses render concurrently
            async let third = client.execute(uri: "/appleid/button?width=143", method: .get)
            #expect(await waiting.value(at: 0) == 1, "the third waits for a renderer")

            // The fourth is answered before any render ends, or (without a bound) joins the queue.
            enum Outcome: Sendable {
                case answered(HTTPResponse.Status, String?)
                case queued
            }
            let outcome = try await withThrowingTaskGroup(of: Outcome.self) { group in
                group.addTask {
                    let response = try await client.execute(uri: "/appleid/button?width=144", method: .get)
                    return .answered(response.status, response.headers[.retryAfter])
                }
                // Next the waiting room grows to 2 (the fourth joined it), or shrinks to 0 once the gate opens.
                group.addTask { await waiting.value(at: 1) == 2 ? .queued : .answered(.ok, nil) }
                let outcome = try await group.next()
                await gate.open()
                try await group.waitForAll()
                return outcome
            }
            guard case .answered(let status, let retryAfter) = outcome else {
                Issue.record("the fourth request joined the queue instead of a 503")
                return
            }
            #expect(status == .serviceUnavailable)
            #expect(retryAfter == "1")
            for response in try await [first, second, third] { #expect(response.status == .ok) }
            #expect(await gate.renders == 3, "the refused request rendered nothing")
        }
    }

    @Test("the gallery's images are pre-rendered once each, and then every image the gallery page shows is a cache hit")
    func galleryPrerendered() async throws {
        let (queue, gate, _, _) = Self.queue(waitingLimit: 0)
        await gate.open()
        let images = ButtonImages(cache: ButtonImageCache(), queue: queue)
        await images.prerenderGallery()
        let specs = ButtonGallery.specs(locales: ButtonLocale.all)
        #expect(await gate.renders == specs.count)
        #expect(await images.cache.count == specs.count)

        let router = Router(context: AppleIDRequestContext.self)
        ButtonEndpoints(images: images, pages: try await PageRenderer.load(), random: SeededRandomSource(seed: "buttons")).register(on: router)
        try await Application(router: router).test(.router) { client in
            let cells = ButtonGallery(locales: ButtonLocale.all, scriptNonce: "").rows.flatMap(\.cells)
            for cell in cells {
                let response = try await client.execute(uri: cell.imageURL, method: .get)
                #expect(response.status == .ok, "\(cell.imageURL)")
            }
            #expect(await gate.renders == specs.count, "no image of the gallery was rendered again")
        }
    }
}
