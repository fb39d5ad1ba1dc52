/// A refusal of a declaration file, naming the file, the line and the rule:
/// `siwa.yaml:14: services_ids[0].return_urls[1]: http://10.0.0.1/cb: Return URLs must use https.`
public struct EnvironmentFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    /// From 1; `nil` when the file could not be read at all.
    public var line: Int?
    public var reason: String

    public init(file: String, line: Int?, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String { line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)" }
}
