import Foundation
import Testing

@testable import SiwaCheck

/// The README's table of checks ("Check your app") gives every check its class, the attack it stands
/// for and its source, as `CheckID+Rationale.swift` does: a check added or reclassed without the
/// table fails here (issue 37).
@Suite("siwa check: the README's check table matches every check's class, attack and source")
struct CheckTableTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// The rows of the section's tables that start with a check's name, by that name: their cells.
    static func rows() throws -> [String: [String]] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "## Check your app") else { return [:] }
        let section = String(text[start.upperBound...]).components(separatedBy: "\n## ").first ?? ""
        var rows: [String: [String]] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if let name = cells.first?.trimmingCharacters(in: CharacterSet(charactersIn: "`")) { rows[name] = Array(cells.dropFirst()) }
        }
        return rows
    }

    @Test("every check has a row: class, attack, source", arguments: CheckID.allCases)
    func row(check: CheckID) throws {
        let cells = try #require(try Self.rows()[check.rawValue], "no row for \(check.rawValue)")
        let rationale = check.rationale
        #expect(cells == [rationale.classText(of: check), rationale.attack, rationale.source])
    }

    @Test("the table has no row for a check that does not exist")
    func noStaleRows() throws {
        let rows = try Self.rows()
        #expect(Set(rows.keys) == Set(CheckID.allCases.map(\.rawValue)))
    }
}
