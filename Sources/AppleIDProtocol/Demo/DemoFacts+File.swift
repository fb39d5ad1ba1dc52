import Foundation

extension DemoFacts {
    /// The file's name in the data directory.
    public static let fileName = "demo.json"

    /// `demo.json` in `dataDirectory`.
    public static func fileURL(inDataDirectory dataDirectory: URL) -> URL { dataDirectory.appendingPathComponent(fileName) }

    /// Reads `demo.json` from `dataDirectory`; `nil` when there is none.
    /// - Throws: the decoder's error when the file is not the facts `siwa serve` writes.
    public static func read(fromDataDirectory dataDirectory: URL) throws -> DemoFacts? {
        let url = fileURL(inDataDirectory: dataDirectory)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(DemoFacts.self, from: Data(contentsOf: url))
    }

    /// The file's contents as the server writes them: pretty, keys sorted, for people and scripts.
    public func fileContents() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
