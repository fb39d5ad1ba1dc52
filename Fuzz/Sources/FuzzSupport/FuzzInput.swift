import Dispatch
import Foundation

/// What every harness needs around libFuzzer's C entry point.
public enum FuzzInput {
    /// The input as bytes (libFuzzer may pass a null pointer with a count of 0).
    public static func bytes(_ start: UnsafeRawPointer?, _ count: Int) -> [UInt8] {
        guard let start, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// Runs an async parser to completion from libFuzzer's synchronous callback. The callback's
    /// thread waits while the work runs on the global executor, so this never waits on itself.
    public static func blocking(_ work: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await work()
            done.signal()
        }
        done.wait()
    }

    /// A file of `Tests/Fixtures` (this file is `Fuzz/Sources/FuzzSupport/FuzzInput.swift`).
    public static func fixture(_ path: String) -> [UInt8] {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent("Tests/Fixtures/" + path).path) else {
            fatalError("the fixture \(path) is missing: run the harness from a checkout of the repository")
        }
        return [UInt8](data)
    }

    /// A broken invariant: abort so that libFuzzer records the input as a crash.
    public static func fail(_ message: String) -> Never {
        fatalError("invariant broken: \(message)")
    }
}
