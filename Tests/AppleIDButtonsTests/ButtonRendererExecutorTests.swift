import Dispatch
import Foundation
import Logging
import Synchronization
import Testing

@testable import AppleIDButtons

@Suite("Button images: a render holds no thread of Swift's pool")
struct ButtonRendererExecutorTests {
    /// One renderer per thread of Swift's cooperative pool (one per core), each held mid-render: a
    /// task on the global executor still runs, and then lets them go. With the renderers on the
    /// global executor every thread of the pool is held, nothing else runs until the holds give up,
    /// and the test fails by the holds that gave up. The holds wait long (5 minutes): the other
    /// suites keep the pool busy (a run starts every test at once on 2 cores), and the task may wait
    /// its turn behind theirs; that is a wait, not a failure.
    @Test("every renderer held mid-render at once, a task on the global executor still runs")
    func heldRendersLeaveThePoolFree() async throws {
        let count = ProcessInfo.processInfo.activeProcessorCount
        let release = DispatchSemaphore(value: 0)
        let gaveUp = Atomic(0)
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let renderers = try (0..<count).map { _ in
            try ButtonRenderer(logger: Logger(label: "test")) {
                startedContinuation.yield()
                // Waiting, not computing: the other suites of the run keep the cores meanwhile.
                if release.wait(timeout: .now() + .seconds(300)) == .timedOut { gaveUp.add(1, ordering: .relaxed) }
            }
        }
        let spec = ButtonSpec(layout: .logo, width: 44, height: 44, scale: 1)
        let renders = renderers.map { renderer in Task.detached { try await renderer.png(spec) } }
        var starts = started.makeAsyncIterator()
        for _ in 0..<count { await starts.next() }

        let ranMeanwhile = await Task.detached { gaveUp.load(ordering: .relaxed) == 0 }.value
        for _ in 0..<count { release.signal() }
        for render in renders { #expect(try await render.value.isEmpty == false) }
        #expect(ranMeanwhile)
        #expect(gaveUp.load(ordering: .relaxed) == 0)
    }
}
