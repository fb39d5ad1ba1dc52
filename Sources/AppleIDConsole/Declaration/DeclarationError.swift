import AppleIDProvider
import Foundation

/// A declaration the engine refused, with where in the file: the reader turns ``path`` into a line.
public struct DeclarationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The place in the declaration, from the top: `services_ids`, `0`, `return_urls`, `1`.
    public var path: [DeclarationPathComponent]
    /// The rule, as the engine words it (the console's message).
    public var reason: String

    public init(path: [DeclarationPathComponent], reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `services_ids[0].return_urls[1]`
    public var pathDescription: String {
        path.reduce(into: "") { text, component in
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
    }

    public var description: String { "\(pathDescription): \(reason)" }
}

public enum DeclarationPathComponent: Sendable, Hashable {
    case key(String)
    case index(Int)
}

/// Runs `work` and names `path` in whatever it throws: the engine's rules speak of values, the
/// file's reader of lines.
func located<T>(_ path: [DeclarationPathComponent], _ work: () async throws -> T) async throws -> T {
    do {
        return try await work()
    } catch let error as DeclarationError {
        throw error
    } catch let error as ConsoleError {
        throw DeclarationError(path: path, reason: error.message)
    } catch {
        throw DeclarationError(path: path, reason: "\(error)")
    }
}
