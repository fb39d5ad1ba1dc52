import AppleIDProtocol
import Foundation
import Testing

/// Registered values and identifiers are compared byte for byte (``WireMatch``); Swift's `String ==`
/// follows Unicode canonical equivalence, so U+212A KELVIN SIGN would pass for "K".
@Suite("Wire strings are compared byte for byte")
struct WireMatchTests {
    @Test("canonically equivalent strings are different wire values")
    func canonicalEquivalence() {
        #expect("RECIPIENT\u{212A}" == "RECIPIENTK", "Swift's String == is what this guards against")
        #expect(!WireMatch.exact("RECIPIENT\u{212A}", "RECIPIENTK"))
        #expect(TeamID(rawValue: "RECIPIENT\u{212A}") != TeamID(rawValue: "RECIPIENTK"))
        #expect(WireMatch.exact("RECIPIENTK", "RECIPIENTK"))
    }

    /// The names that hold wire strings as `String` (a registered value, a claim or a parameter):
    /// a comparison of one of them, or of an identifier's `rawValue`, with `==` or `!=` must go
    /// through ``WireMatch`` or the identifier types (whose `==` is byte-exact) instead.
    static let wireStringNames = [
        "rawValue", "audience", "issuer", "redirectURI", "codeChallenge", "challenge", "target", "nonce", "frameID", "expected",
    ]

    /// Files allowed to compare raw strings: the byte-exact comparison itself, and a button locale
    /// (one of spec §14.2's ASCII codes, checked at init; never compared with a registered value).
    static let exempt: Set<String> = ["WireMatch.swift", "WireIdentifier.swift", "ButtonLocale.swift"]

    /// `==` or `!=` with a wire-string name right beside it (`a.rawValue == b`, `x != expected`).
    static let comparison: NSRegularExpression = {
        let names = wireStringNames.joined(separator: "|")
        let operand = #"[A-Za-z_][\w.?()!]*"#
        let pattern = #"\b(\#(names))\??\s*[!=]=(?!=)|[!=]=\s*(?:\#(operand))?\b(\#(names))\b(?!\s*[(:])"#
        do { return try NSRegularExpression(pattern: pattern) } catch { preconditionFailure("the pattern is a literal: \(error)") }
    }()

    static func comparisons(in line: String) -> Bool {
        let code = line.trimmingCharacters(in: .whitespaces)
        guard !code.hasPrefix("//") else { return false }
        // `x == nil` asks whether a value is present, which is not a comparison of two wire strings.
        let withoutNil = code.replacingOccurrences(of: #"\s*[!=]=\s*nil\b"#, with: "", options: .regularExpression)
        return comparison.firstMatch(in: withoutNil, range: NSRange(withoutNil.startIndex..., in: withoutNil)) != nil
    }

    @Test("the scanner finds String == on wire strings, and leaves the byte-exact forms alone")
    func scannerFindsComparisons() {
        #expect(Self.comparisons(in: "guard target == transfer.toTeamID.rawValue else {"))
        #expect(Self.comparisons(in: "if let expected, value != expected { return }"))
        #expect(Self.comparisons(in: "guard identity.audience == grant.clientID else {"))
        #expect(!Self.comparisons(in: "guard WireMatch.exact(target, transfer.toTeamID.rawValue) else {"))
        #expect(!Self.comparisons(in: "guard record.clientID == client.id else {"))
        #expect(!Self.comparisons(in: "guard request.target == nil else {"))
        #expect(!Self.comparisons(in: "// target == rawValue in a comment"))
    }

    @Test("no source file compares wire strings with String == or !=")
    func sourcesUseWireMatch() throws {
        let sources = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../Sources").standardized
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var found: [String] = []
        var scanned = 0
        for case let file as URL in files where file.pathExtension == "swift" && !Self.exempt.contains(file.lastPathComponent) {
            scanned += 1
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.comparisons(in: String(line)) {
                found.append("\(file.path.replacingOccurrences(of: sources.path + "/", with: "")):\(number + 1): \(line)")
            }
        }
        #expect(scanned > 100, "the scan read the source tree")
        #expect(found.isEmpty, "compare with WireMatch.exact or the identifier types:\n\(found.joined(separator: "\n"))")
    }
}
