import Logging
import SignInWithApple
import Synchronization
import Testing

@testable import SignInWithAppleTesting

/// The emulator runs inside a user's `swift test`: a normal run and its shutdown write nothing at
/// warning or above into their output. Errors are for errors.
@Suite("The emulator stops quietly", .timeLimit(.minutes(5)))
struct EmulatorShutdownTests {
    /// Every line logged through it, at every level.
    final class CollectedLog: Sendable {
        private let lines = Mutex<[(level: Logger.Level, message: String)]>([])

        func append(_ level: Logger.Level, _ message: String) { lines.withLock { $0.append((level, message)) } }

        func messages(atOrAbove level: Logger.Level) -> [String] {
            lines.withLock { $0.filter { $0.level >= level }.map { "\($0.level): \($0.message)" } }
        }
    }

    struct CollectingLogHandler: LogHandler {
        let log: CollectedLog
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { log.append(event.level, "\(event.message) \(event.metadata ?? [:])") }
    }

    @Test("a sign-in and the end of withAppleIDEmulator log nothing at warning or above")
    func normalRunIsQuiet() async throws {
        let log = CollectedLog()
        let logger = Logger(label: "emulator") { _ in CollectingLogHandler(log: log) }
        try await withAppleIDEmulator(logger: logger) { apple in
            let siwa = try apple.makeClient()
            _ = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
        }
        #expect(log.messages(atOrAbove: .warning) == [])
        #expect(!log.messages(atOrAbove: .trace).isEmpty, "the logger reached the server: it logged its start")
    }
}
