import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A `siwa serve` of a test's own, run as the built binary: loopback, a port the kernel chose, a
/// fresh data directory. The admin verbs find it through `--data-dir` (its demo.json).
final class SiwaServer {
    let directory: URL
    let port: Int
    private let process: Process
    private let stopped = Mutex(false)

    /// Starts the server and returns once it listens (its banner is written then). The wait is on a
    /// thread of its own (``SiwaFixtures/offThePool(_:)``): a debug server takes about a second to start.
    init() async throws {
        await SiwaServerSlots.shared.acquire()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-serve-\(UUID().uuidString)")
        let port = try Self.freePort()
        self.directory = directory
        self.port = port
        do {
            process = try await SiwaFixtures.offThePool { try Self.launch(port: port, directory: directory) }
        } catch {
            SiwaServerSlots.shared.release()
            throw error
        }
    }

    private static func launch(port: Int, directory: URL) throws -> Process {
        let process = Process()
        process.executableURL = SiwaFixtures.siwaURL
        process.arguments = ["serve", "--port", "\(port)", "--data-dir", directory.path, "--log-level", "error"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var banner = ""
        while !banner.contains("Stop the server with Ctrl-C.") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }  // the server exited
            banner += String(decoding: chunk, as: UTF8.self)
        }
        guard banner.contains("Stop the server with Ctrl-C.") else {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: directory)
            throw CLIFailure("siwa serve did not start: \(banner)")
        }
        return process
    }

    deinit { stop() }

    func stop() {
        let first = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        guard first else { return }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
        SiwaServerSlots.shared.release()
    }

    /// Runs `siwa` with `arguments` and this server's `--data-dir`.
    func run(_ arguments: [String]) async throws -> SiwaFixtures.Run {
        try await SiwaFixtures.run(arguments + ["--data-dir", directory.path])
    }

    /// A loopback port free a moment ago (bound to port 0, then released).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    struct CLIFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// How many of the tests' `siwa serve` processes run at once: one. A debug server spends about 7 s of
/// CPU in its first seconds (its signing keys, the button gallery drawn ahead); several starting
/// together would take both cores from every other test of the run for half a minute, past the
/// deadlines of their in-process servers. A test waits here for its turn.
final class SiwaServerSlots: Sendable {
    static let shared = SiwaServerSlots(limit: 1)

    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(limit: Int) { state = Mutex(State(free: limit)) }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Hands the slot to the longest-waiting test, or frees it.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
