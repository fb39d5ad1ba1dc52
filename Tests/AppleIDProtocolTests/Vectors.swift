import Foundation

/// The test vectors kept in the repository, `Tests/Fixtures` (sources and licences in its README):
/// this file is `Tests/AppleIDProtocolTests/Vectors.swift`.
enum Vectors {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

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
