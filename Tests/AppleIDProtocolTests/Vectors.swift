import Foundation

/// The shared test vectors beside the project (`../shared/vectors`), never copied into it.
enum Vectors {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/vectors")

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let appleIDTokens = [
        "apple/id_tokens/gameroasters_noemail_eXaunmL.jwt",
        "apple/id_tokens/gameroasters_validate_YuyXoY.jwt",
        "apple/id_tokens/juice_YuyXoY.jwt",
        "apple/id_tokens/namecare_W6WcOKB.jwt",
        "apple/id_tokens/whitepaek_codegrant_eXaunmL.jwt",
    ]
}
