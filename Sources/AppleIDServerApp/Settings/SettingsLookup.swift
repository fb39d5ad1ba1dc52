import Configuration
import Synchronization

/// Where a setting's value came from, so that an error names the place to fix.
enum SettingSource: Sendable {
    case commandLine
    case environment
    case file(String)
    case defaults

    /// `--port 99999`, `SIWA_PORT=abc`, `port: abc in siwa.yaml (server:)`.
    func naming(_ key: ServeSettingKey, value: String?) -> String {
        let shown = key.isSecret ? nil : value
        switch self {
        case .commandLine: return [key.flag, shown].compactMap { $0 }.joined(separator: " ")
        case .environment: return key.environmentVariable + (shown.map { "=\($0)" } ?? "")
        case .file(let path): return "\(key.name): \(shown ?? "") in the server: section of \(path)"
        case .defaults: return "the default \(key.name) \(shown ?? "")"
        }
    }
}

/// One `ConfigReader` over the sources in order, and the source of every value it returns: the
/// access reporter sees which provider answered (or failed) each lookup.
struct SettingsLookup {
    private let reader: ConfigReader
    private let lastAccess = LastAccessEvent()
    private let sources: [SettingSource]

    init(providers: [(SettingSource, any ConfigProvider)]) {
        sources = providers.map(\.0)
        reader = ConfigReader(providers: providers.map(\.1), accessReporter: lastAccess)
    }

    func string(_ key: ServeSettingKey) throws -> (String, SettingSource)? {
        try lookUp(key, expected: "text") { $0.string(forKey: $1, isSecret: $2) }
    }

    func int(_ key: ServeSettingKey) throws -> (Int, SettingSource)? {
        try lookUp(key, expected: "a whole number") { $0.int(forKey: $1, isSecret: $2) }
    }

    /// A switch: a boolean, or `on` / `off` as the `--playground` option spells it.
    func onOff(_ key: ServeSettingKey) throws -> Bool? {
        do {
            return try lookUp(key, expected: "on or off") { $0.bool(forKey: $1, isSecret: $2) }?.0
        } catch let refusal as StartupError {
            guard let (text, _) = try? string(key), ["on", "off"].contains(text.lowercased()) else { throw refusal }
            return text.lowercased() == "on"
        }
    }

    /// A text that `parse` turns into a value, or an error that names the source and `expected`.
    func parsed<Value>(_ key: ServeSettingKey, expected: String, _ parse: (String) -> Value?) throws -> Value? {
        guard let (text, source) = try string(key) else { return nil }
        guard let value = parse(text) else { throw Self.refusal(key, source: source, value: text, expected: expected) }
        return value
    }

    /// Seconds, from a duration such as 30s, 10m, 24h or 30d.
    func seconds(_ key: ServeSettingKey) throws -> Int? {
        try parsed(key, expected: "a duration such as 30s, 10m, 24h or 30d") { DurationText.seconds($0).flatMap { $0 >= 0 ? $0 : nil } }
    }

    static func refusal(_ key: ServeSettingKey, source: SettingSource, value: String?, expected: String) -> StartupError {
        StartupError("\(source.naming(key, value: value)) is not \(expected)")
    }

    private func lookUp<Value>(
        _ key: ServeSettingKey, expected: String, _ read: (ConfigReader, ConfigKey, Bool) -> Value?
    ) throws -> (Value, SettingSource)? {
        let value = read(reader, ConfigKey(key.name), key.isSecret)
        // The providers are asked in order until one answers or fails: the last result is the source.
        guard let event = lastAccess.take(), let answer = event.providerResults.last else { return nil }
        let source = sources[event.providerResults.count - 1]
        let failed: Bool
        if case .failure = answer.result { failed = true } else { failed = event.conversionError != nil }
        if failed {
            // The text as given, when the source has one (an environment variable always does).
            let text = reader.string(forKey: ConfigKey(key.name), isSecret: key.isSecret)
            _ = lastAccess.take()
            throw Self.refusal(key, source: source, value: text, expected: expected)
        }
        return value.map { ($0, source) }
    }
}

/// The last lookup's event: which provider answered, and whether its value could not be converted.
private final class LastAccessEvent: AccessReporter {
    private let event = Mutex<AccessEvent?>(nil)

    func report(_ event: AccessEvent) { self.event.withLock { $0 = event } }

    func take() -> AccessEvent? { event.withLock { $0.take() } }
}
