import Foundation

/// A DKIM tag list (RFC 6376 §3.2): `name=value` pairs separated by `;`, whitespace inside values
/// dropped. The console reads a registered key's DNS record with it, the relay each signature.
package enum DKIMTagList {
    package static func parse(_ value: String) -> [String: String] {
        var tags: [String: String] = [:]
        for piece in value.split(separator: ";") {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let name = piece[..<equals].trimmingCharacters(in: .whitespacesAndNewlines)
            tags[name] = String(piece[piece.index(after: equals)...].filter { !$0.isWhitespace })
        }
        return tags
    }
}
