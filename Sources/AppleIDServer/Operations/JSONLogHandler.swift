import Foundation
import Logging

/// One JSON object per line on standard error, for log shippers (`siwa serve --log-format json`):
/// `timestamp` (ISO 8601 with milliseconds), `level`, `label`, `message`, then every metadata field
/// (the request's `request_id` included, through the metadata provider).
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let write: @Sendable (String) -> Void

    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil, write: @escaping @Sendable (String) -> Void = Self.standardError) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public static let standardError: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data(line.utf8)) }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: Any] = [:]
        let merged = metadata.merging(metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
        for (key, value) in merged { fields[key] = Self.json(value) }
        fields["timestamp"] = Self.timestamp(Date())
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = event.message.description
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        write(String(decoding: data, as: UTF8.self) + "\n")
    }

    private static func json(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let array): array.map(json)
        case .dictionary(let dictionary): dictionary.mapValues(json)
        }
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))  // 2026-11-23T02:30:00.123Z
    }
}
