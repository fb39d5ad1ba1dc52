import Foundation
import Testing

@testable import AppleIDServerApp

/// Every key the reader reads is in the README's settings table, with its variable, option, default
/// and meaning, and the table lists nothing else: the documentation cannot drift from the reader.
@Suite("siwa serve settings: the README documents every key")
struct ServeSettingsDocumentationTests {
    /// This file is `Tests/AppleIDServerAppTests/Settings/…`: the package root is three folders up.
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")

    /// The table's rows: `| `key` | `SIWA_KEY` | `--flag` | default | meaning |`.
    static func documentedRows() throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "<!-- serve settings: start -->"), let end = text.range(of: "<!-- serve settings: end -->") else {
            return []
        }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init).filter { $0.hasPrefix("| `") }
    }

    static func row(_ key: ServeSettingKey) -> String {
        "| `\(key.name)` | `\(key.environmentVariable)` | `\(key.flag)` | \(key.documentedDefault) | \(key.meaning) |"
    }

    @Test("the README's table and the reader's keys agree, row for row")
    func tableMatchesKeys() throws {
        let documented = try Self.documentedRows()
        let expected = ServeSettingKey.all.map(Self.row)
        for row in expected where !documented.contains(row) {
            Issue.record("missing from the README's settings table:\n\(row)")
        }
        for row in documented where !expected.contains(row) {
            Issue.record("in the README's settings table but not read by siwa serve:\n\(row)")
        }
        #expect(documented.count == expected.count)
    }

    @Test("every key has one name, one variable and one option")
    func namesAreUnique() {
        for path in [\ServeSettingKey.name, \.environmentVariable, \.flag] {
            let names = ServeSettingKey.all.map { $0[keyPath: path] }
            #expect(Set(names).count == names.count)
        }
    }
}
