import Logging
import Synchronization

/// Keeps every log line (message and metadata) so a test can read what the server logged.
struct RecordingLogHandler: LogHandler {
    final class Lines: Sendable {
        private let lines = Mutex<[(message: String, metadata: [String: String])]>([])
        func append(_ message: String, _ metadata: [String: String]) { lines.withLock { $0.append((message, metadata)) } }
        var all: [(message: String, metadata: [String: String])] { lines.withLock { $0 } }
    }

    let lines: Lines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    var metadataProvider: Logger.MetadataProvider?

    init(lines: Lines, metadataProvider: Logger.MetadataProvider? = nil) {
        self.lines = lines
        self.metadataProvider = metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
        lines.append(event.message.description, merged.mapValues { "\($0)" })
    }

    static func logger() -> (Logger, Lines) {
        let lines = Lines()
        return (Logger(label: "recorded") { _ in RecordingLogHandler(lines: lines) }, lines)
    }
}
