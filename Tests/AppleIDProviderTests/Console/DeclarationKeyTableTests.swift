import AppleIDConsole
import AppleIDProvider
import Foundation
import ServerTestSupport
import Testing

/// The README's key table of `siwa serve --config` ("Environments as code") names every key the
/// declaration reads, each in the row of its section: a key added to the model but not to the table
/// fails here.
@Suite("siwa serve --config: the README's key table documents every key of the file")
struct DeclarationKeyTableTests {
    static let readme = Fixtures.packageRoot.appendingPathComponent("README.md")

    /// Each section of the file and the type that reads it.
    static let sections: [(row: String, type: any Decodable.Type)] = [
        ("teams[]", EnvironmentDeclaration.Team.self),
        ("app_ids[]", EnvironmentDeclaration.AppID.self),
        ("services_ids[]", EnvironmentDeclaration.ServicesID.self),
        ("quirks", QuirkChanges.self),
        ("keys[]", EnvironmentDeclaration.Key.self),
        ("apple_ids[]", EnvironmentDeclaration.AppleID.self),
        ("developers[]", EnvironmentDeclaration.Developer.self),
        ("organizations[]", EnvironmentDeclaration.Organization.self),
        ("organizations[].accounts[]", EnvironmentDeclaration.ManagedAccount.self),
    ]

    /// The table's rows by their first cell: `| `teams[]` | … |`.
    static func rows() throws -> [String: String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "## Environments as code") else { return [:] }
        let section = String(text[start.upperBound...]).components(separatedBy: "\n## ").first ?? ""
        var rows: [String: String] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if let first = cells.first { rows[first.trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = String(line) }
        }
        return rows
    }

    @Test("every top-level key has a row")
    func topLevelKeys() throws {
        let rows = try Self.rows()
        let keys = try KeyProbingDecoder.keys(of: EnvironmentDeclaration.self).union(["server"])
        let missing = keys.filter { rows[$0] == nil && rows[$0 + "[]"] == nil }.sorted()
        #expect(missing.isEmpty, "top-level keys missing from the README's table: \(missing)")
        #expect(rows.count >= keys.count, "the table was not found")
    }

    @Test("every key of each section is named in its row")
    func sectionKeys() throws {
        let rows = try Self.rows()
        var missing: [String] = []
        for (row, type) in Self.sections {
            guard let text = rows[row] else {
                missing.append("the row \(row)")
                continue
            }
            for key in try KeyProbingDecoder.keys(of: type).sorted() where !text.contains("`\(key)`") {
                missing.append("\(row) \(key)")
            }
        }
        #expect(missing.isEmpty, "missing from the README's key table: \(missing.joined(separator: ", "))")
    }
}
