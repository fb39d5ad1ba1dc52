import Foundation
import Yams

/// Finds a key the model does not know (a typo such as `return_url` would otherwise be dropped in
/// silence): the decoded value, encoded again, holds every key the model read; a key of the file
/// beyond those, with a value, was not read.
enum UnknownKeys {
    struct Found {
        var path: String
        var line: Int?
    }

    static func first(in root: Node, decoded: some Encodable, ignoringTopLevel ignored: Set<String>) -> Found? {
        guard let data = try? JSONEncoder().encode(decoded), let known = try? JSONSerialization.jsonObject(with: data) else { return nil }
        return first(in: root, known: known, path: "", ignoring: ignored)
    }

    private static func first(in node: Node, known: Any, path: String, ignoring ignored: Set<String> = []) -> Found? {
        switch node {
        case .mapping(let mapping):
            let knownKeys = known as? [String: Any] ?? [:]
            for (key, value) in mapping {
                guard let name = key.string, !ignored.contains(name) else { continue }
                let keyPath = path.isEmpty ? name : "\(path).\(name)"
                guard let child = knownKeys[name] else {
                    if value.null == nil { return Found(path: keyPath, line: key.mark?.line) }
                    continue
                }
                if let found = first(in: value, known: child, path: keyPath) { return found }
            }
        case .sequence(let sequence):
            let knownItems = known as? [Any] ?? []
            for (index, item) in sequence.enumerated() where index < knownItems.count {
                if let found = first(in: item, known: knownItems[index], path: "\(path)[\(index)]") { return found }
            }
        default:
            break
        }
        return nil
    }
}
