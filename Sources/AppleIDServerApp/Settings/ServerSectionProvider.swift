import Configuration
import Foundation
import Yams

/// The `server:` section of `siwa serve --config FILE`, as a configuration provider.
///
/// The rest of the file declares teams, App IDs and Apple IDs as lists of mappings, which
/// swift-configuration's file snapshots refuse (they hold scalars and lists of scalars only), so only
/// this section is handed to them: a YAML file to `YAMLSnapshot`, a `.json` file to `JSONSnapshot`,
/// and each types its values as it would for a file of its own.
struct ServerSectionProvider: ConfigProvider {
    let providerName: String
    private let section: any ConfigSnapshot

    /// The keys the section names, to refuse a misspelt one rather than ignore it.
    let keys: [String]

    init(path: String) throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read as UTF-8 text" : "there is no such file"
            throw StartupError("cannot read the configuration file \(path): \(reason)")
        }
        providerName = path
        do {
            if path.lowercased().hasSuffix(".json") {
                (section, keys) = try Self.jsonSection(text, path: path)
            } else {
                (section, keys) = try Self.yamlSection(text, path: path)
            }
        } catch let error as StartupError {
            throw error
        } catch {
            throw StartupError("the configuration file \(path) is not valid: \(error)")
        }
    }

    private static func yamlSection(_ text: String, path: String) throws -> (any ConfigSnapshot, [String]) {
        guard let root = try Yams.compose(yaml: text) else { return try (emptySection(path), []) }
        guard let mapping = root.mapping else { throw StartupError("the configuration file \(path) is not a mapping of sections") }
        guard let server = mapping["server"] else { return try (emptySection(path), []) }
        guard let serverMapping = server.mapping else { throw StartupError("server: in \(path) is not a mapping of settings") }
        let yaml = try Yams.serialize(node: server)
        let snapshot = try YAMLSnapshot(data: Data(yaml.utf8).bytes, providerName: path, parsingOptions: .default)
        return (snapshot, serverMapping.keys.compactMap(\.string))
    }

    private static func jsonSection(_ text: String, path: String) throws -> (any ConfigSnapshot, [String]) {
        guard let root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw StartupError("the configuration file \(path) is not an object of sections")
        }
        guard let server = root["server"] else { return try (emptySection(path), []) }
        guard let settings = server as? [String: Any] else { throw StartupError("\"server\" in \(path) is not an object of settings") }
        let json = try JSONSerialization.data(withJSONObject: settings)
        return (try JSONSnapshot(data: json.bytes, providerName: path, parsingOptions: .default), Array(settings.keys))
    }

    private static func emptySection(_ path: String) throws -> any ConfigSnapshot {
        try JSONSnapshot(data: Data("{}".utf8).bytes, providerName: path, parsingOptions: .default)
    }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try section.value(forKey: key, type: type)
    }

    func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try value(forKey: key, type: type)
    }

    // The library is built with nonisolated(nonsending) by default: its handlers are spelt so here.
    nonisolated(nonsending) func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey, type: ConfigType,
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchValueFromValue(forKey: key, type: type, updatesHandler: updatesHandler)
    }

    func snapshot() -> any ConfigSnapshot { section }

    nonisolated(nonsending) func watchSnapshot<Return: ~Copyable>(
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchSnapshotFromSnapshot(updatesHandler: updatesHandler)
    }
}
