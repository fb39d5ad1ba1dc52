import Foundation
import Testing

/// Every Swift block of the DocC catalogs (Sources/*/*.docc) and of the README is a test here,
/// verbatim (whitespace aside): an example edited on one side only fails this test, and a kit API
/// an example no longer matches fails the build.
@Suite("Documentation examples are tests")
struct ExamplesMatchDocumentationTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func documents() throws -> [URL] {
        let sources = packageRoot.appendingPathComponent("Sources")
        let catalogs = try FileManager.default.contentsOfDirectory(at: sources, includingPropertiesForKeys: nil).flatMap { module in
            let items = (try? FileManager.default.contentsOfDirectory(at: module, includingPropertiesForKeys: nil)) ?? []
            return items.filter { $0.pathExtension == "docc" }
        }
        let pages = try catalogs.flatMap { catalog in
            try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil).filter { $0.pathExtension == "md" }
        }
        return pages + [packageRoot.appendingPathComponent("README.md")]
    }

    /// The ```swift blocks of a Markdown text.
    static func swiftBlocks(_ markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!.joined(separator: "\n"))  // set on the opening line
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("every Swift block of the catalogs and the README appears in this target's examples")
    func everyBlockIsATest() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let examples = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" && $0.lastPathComponent != "ExamplesMatchDocumentationTests.swift" }
            .map { Self.normalized(try String(contentsOf: $0, encoding: .utf8)) }
            .joined(separator: "\n")
        var count = 0
        for document in try Self.documents() {
            for block in Self.swiftBlocks(try String(contentsOf: document, encoding: .utf8)) {
                count += 1
                // An example's imports head the file that holds it, above what the test adds.
                let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
                let imports = lines.filter { $0.hasPrefix("import ") }
                let body = Self.normalized(lines.filter { !$0.hasPrefix("import ") }.joined(separator: "\n"))
                let found = examples.contains(body) && imports.allSatisfy { examples.contains(Self.normalized(String($0))) }
                #expect(found, "\(document.lastPathComponent): this example is not a test (or differs from it):\n\(block)")
            }
        }
        #expect(count >= 17, "the catalogs and the README hold the examples this target keeps")
    }
}
