import AppleIDConsole
import AppleIDProvider
import Yams

/// Finds the line of a place in the parsed file: the deepest node a path reaches (a key the file left
/// out is reported at the mapping that should hold it).
struct NodeLocator {
    let root: Node

    func line(at path: [DeclarationPathComponent]) -> Int? {
        var node = root
        for component in path {
            let next: Node? =
                switch component {
                case .key(let key): node.mapping?[key]
                case .index(let index): node.sequence.flatMap { index < $0.count ? $0[index] : nil }
                }
            guard let next else { break }
            node = next
        }
        return node.mark?.line
    }

    func line(at codingPath: [any CodingKey]) -> Int? {
        line(at: codingPath.map { key in key.intValue.map(DeclarationPathComponent.index) ?? .key(key.stringValue) })
    }
}

/// A decoding error as a path and a sentence (wrong type, missing key, a value outside a vocabulary).
enum DecodingProblem {
    static func describe(_ error: DecodingError) -> (path: [any CodingKey], reason: String) {
        switch error {
        case .typeMismatch(let type, let context):
            (context.codingPath, "\(Self.name(context.codingPath)): expected \(Self.name(of: type))")
        case .valueNotFound(let type, let context):
            (context.codingPath, "\(Self.name(context.codingPath)): expected \(Self.name(of: type)), found nothing")
        case .keyNotFound(let key, let context):
            (context.codingPath, "\(Self.name(context.codingPath + [key])): required")
        case .dataCorrupted(let context):
            (context.codingPath, "\(Self.name(context.codingPath)): \(context.debugDescription)")
        @unknown default:
            ([], "\(error)")
        }
    }

    /// `services_ids[0].return_urls`
    static func name(_ path: [any CodingKey]) -> String {
        DeclarationError(path: path.map { $0.intValue.map(DeclarationPathComponent.index) ?? .key($0.stringValue) }, reason: "")
            .pathDescription
    }

    static func name(of type: Any.Type) -> String {
        switch type {
        // Yams asks for a scalar before it knows which: the file has a list or mapping there.
        case is Node.Scalar.Type: "a single value, not a list or mapping"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is [Any].Type: "a list"
        default: type == [String: Any].self ? "a mapping" : "\(type)"
        }
    }
}
