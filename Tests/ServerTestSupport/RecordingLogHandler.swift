import Logging
import Synchronization

/// Keeps every log line (message and metadata) so a test can read what the server logged.
package struct RecordingLogHandler: LogHandler {
    package final class Lines: Sendable {
        private let lines = Mutex<[(message: String, metadata: [String: String])]>([])
        package init() {}
        package func append(_ message: String, _ metadata: [String: String]) { lines.withLock { $0.append((message, metadata)) } }
        package var all: [(message: String, metadata: [String: String])] { lines.withLock { $0 } }
    }

    package let lines: Lines
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .trace
    package var metadataProvider: Logger.MetadataProvider?

    package init(lines: Lines, metadataProvider: Logger.MetadataProvider? = nil) {
        self.lines = lines
        self.metadataProvider = metadataProvider
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let merged = metadata.merging(metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
        lines.append(event.message.description, merged.mapValues { "\($0)" })
    }

    package static func logger() -> (Logger, Lines) {
        let lines = Lines()
        return (Logger(label: "recorded") { _ in RecordingLogHandler(lines: lines) }, lines)
    }
}
