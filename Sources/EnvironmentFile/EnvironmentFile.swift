import AppleIDConsole
import AppleIDProvider
import Foundation
import Yams

/// A declaration file (`siwa serve --config`), YAML or JSON (JSON is YAML), kept with its parsed
/// nodes so that every error, the reader's or the engine's, names the line it is about.
public struct EnvironmentFile {
    /// As the user named it, for messages.
    public let name: String
    public let declaration: EnvironmentDeclaration
    private let root: Node?

    /// The top-level key of the server's own settings, read by its settings reader and not here.
    static let serverSettingsKey = "server"

    /// Reads `url` and the `.p8` files its keys name (relative to the file's folder).
    public static func load(contentsOf url: URL, name: String? = nil) throws(EnvironmentFileError) -> EnvironmentFile {
        let name = name ?? url.path
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw EnvironmentFileError(file: name, line: nil, reason: "cannot be read (\(error.localizedDescription))")
        }
        var file = try parse(text, name: name)
        try file.readPrivateKeys(relativeTo: url.deletingLastPathComponent())
        return file
    }

    /// Parses `text`: syntax, types and keys. The engine's rules are checked when it is applied.
    public static func parse(_ text: String, name: String) throws(EnvironmentFileError) -> EnvironmentFile {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw EnvironmentFileError(file: name, line: Self.line(of: error), reason: "not YAML or JSON: \(error)")
        } catch {
            throw EnvironmentFileError(file: name, line: nil, reason: "not YAML or JSON: \(error)")
        }
        guard let root else { return EnvironmentFile(name: name, declaration: EnvironmentDeclaration(), root: nil) }
        let declaration: EnvironmentDeclaration
        do {
            declaration = try YAMLDecoder().decode(EnvironmentDeclaration.self, from: root)
        } catch let error as DecodingError {
            let (path, reason) = DecodingProblem.describe(error)
            throw EnvironmentFileError(file: name, line: NodeLocator(root: root).line(at: path), reason: reason)
        } catch {
            throw EnvironmentFileError(file: name, line: nil, reason: "\(error)")
        }
        if let unknown = UnknownKeys.first(in: root, decoded: declaration, ignoringTopLevel: [serverSettingsKey]) {
            throw EnvironmentFileError(file: name, line: unknown.line, reason: "unknown key \(unknown.path)")
        }
        return EnvironmentFile(name: name, declaration: declaration, root: root)
    }

    /// Applies the declaration; a refusal of the engine comes back naming its line.
    public func apply(to provider: AppleIDProvider, prune: Bool) async throws -> DeclarationReport {
        do {
            return try await provider.apply(declaration, prune: prune)
        } catch let error as DeclarationError {
            throw located(error)
        }
    }

    /// `error` with the line of the nearest node its path reaches.
    public func located(_ error: DeclarationError) -> EnvironmentFileError {
        let line = root.flatMap { NodeLocator(root: $0).line(at: error.path) }
        return EnvironmentFileError(file: name, line: line, reason: error.description)
    }

    private mutating func readPrivateKeys(relativeTo folder: URL) throws(EnvironmentFileError) {
        var declaration = self.declaration
        for index in declaration.keys.indices {
            guard let path = declaration.keys[index].p8 else { continue }
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
            do {
                declaration.keys[index].privateKeyPEM = try String(contentsOf: url, encoding: .utf8)
            } catch {
                throw located(DeclarationError(path: [.key("keys"), .index(index), .key("p8")], reason: "cannot read \(url.path)"))
            }
        }
        self = EnvironmentFile(name: name, declaration: declaration, root: root)
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        default: nil
        }
    }
}

extension EnvironmentFile {
    /// `declaration` as a YAML file (`siwa config export`), which ``parse(_:name:)`` reads back.
    public static func render(_ declaration: EnvironmentDeclaration) throws -> String {
        let encoder = YAMLEncoder()
        encoder.options.sortKeys = false
        let yaml = try encoder.encode(declaration)
        return declaration.seed == nil ? yaml : seedComment + yaml
    }

    /// What a file's seed protects, written above it by ``render(_:)``.
    static let seedComment = """
        # seed: derives the Team IDs, Key IDs and subs this file does not pin, and in development mode the
        # passwords and TOTP secrets it leaves out. Keep the file as secret as a password, or pin them.
        # Outside development mode a left-out password is random, made once and kept in demo.json.

        """
}
