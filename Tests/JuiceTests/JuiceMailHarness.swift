import AppleIDProtocol
import AppleIDRelay
import AppleIDServerApp
import Logging
import SignInWithAppleTesting
import Synchronization
import Testing

@testable import JuiceApp

/// What a mail test sees: the relay behind the SMTP listener Juice sends to, and Juice's log.
struct JuiceMail {
    let relay: MailRelay
    let smtpPort: Int
    let log: LogRecorder
}

/// Juice configured to send order confirmations with its default sender, registered as an e-mail
/// source of the emulated team, to the relay's real SMTP listener on a free port of 127.0.0.1.
func withJuiceSendingMail(_ body: @Sendable (JuiceHarness, JuiceMail) async throws -> Void) async throws {
    try await withAppleIDEmulator { apple in
        try await apple.addEmailSource(OrderMailSettings.defaultSender)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let listener = SMTPListener(
            host: "127.0.0.1", port: 0, relay: apple.relay, hostname: apple.relayDomain,
            logger: Logger(label: "relay"), onListening: { continuation.yield($0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await listener.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            let log = LogRecorder()
            try await runJuice(apple: apple, configure: { $0.orderMail = OrderMailSettings(port: port) }, logger: log.logger) { juice in
                try await body(juice, JuiceMail(relay: apple.relay, smtpPort: port, log: log))
            }
            group.cancelAll()
        }
    }
}

/// Keeps Juice's log lines, and lets a test wait for one without polling.
final class LogRecorder: Sendable {
    struct Line: Sendable {
        var message: String
        var metadata: [String: String]
    }

    private struct Waiter {
        var id: Int
        var message: String
        var continuation: CheckedContinuation<Line?, Never>
    }

    private let state = Mutex<(lines: [Line], waiters: [Waiter], nextID: Int)>(([], [], 0))

    var logger: Logger { Logger(label: "juice") { _ in Handler(recorder: self) } }
    var lines: [Line] { state.withLock { $0.lines } }

    /// The first line logged with `message`, once there is one; `nil` if the test is cancelled first
    /// (its time limit), so that a line that never comes fails the test instead of hanging it.
    func first(_ message: String) async -> Line? {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let found: Line?? = state.withLock { state in
                    if let line = state.lines.first(where: { $0.message == message }) { return .some(line) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters.append(Waiter(id: id, message: message, continuation: continuation))
                    return .none
                }
                if let found { continuation.resume(returning: found) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume(returning: nil)
        }
    }

    fileprivate func append(_ line: Line) {
        let woken = state.withLock { state in
            state.lines.append(line)
            let woken = state.waiters.filter { $0.message == line.message }
            state.waiters.removeAll { $0.message == line.message }
            return woken
        }
        for waiter in woken { waiter.continuation.resume(returning: line) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            recorder.append(Line(message: event.message.description, metadata: merged.mapValues { "\($0)" }))
        }
    }
}
