import Foundation

/// The results of a run, rendered for people (a table), for scripts (`--json`) and for CI (`--junit`).
public struct CheckReport: Sendable {
    public var results: [CheckResult]
    public var seconds: Double

    public init(results: [CheckResult], seconds: Double) {
        self.results = results
        self.seconds = seconds
    }

    /// Non-zero exit status when a required check failed.
    public var failed: Bool { results.contains(where: \.failsRun) }

    public var table: String {
        let rows = results.map { [$0.check.rawValue, $0.outcome.rawValue, $0.detail, $0.outcome == .failed ? $0.check.fix : ""] }
        let header = ["check", "result", "what happened", "fix"]
        let widths = (0..<3).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") + "  " + row[3]
        }
        let counts = Dictionary(grouping: results, by: \.outcome).mapValues(\.count)
        let summary = CheckResult.Outcome.allOutcomes.compactMap { outcome in counts[outcome].map { "\($0) \(outcome.rawValue)" } }
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n\n" + summary.joined(separator: ", ")
            + String(format: " in %.1f s\n", seconds)
    }

    public func json() throws -> String {
        struct Body: Encodable {
            var results: [Entry]
            var failed: Bool
            var seconds: Double
        }
        struct Entry: Encodable {
            var check: String
            var result: String
            var detail: String
            var fix: String?
        }
        let body = Body(
            results: results.map {
                Entry(check: $0.check.rawValue, result: $0.outcome.rawValue, detail: $0.detail, fix: $0.outcome == .failed ? $0.check.fix : nil)
            },
            failed: failed, seconds: seconds)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(body), as: UTF8.self)
    }

    /// JUnit XML: one test case per check; "not run" is skipped, never passed.
    public var junit: String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
                .replacingOccurrences(of: "\"", with: "&quot;")
        }
        let failures = results.filter(\.failsRun).count
        let skipped = results.filter { $0.outcome == .notRun }.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuite name="siwa check" tests="\#(results.count)" failures="\#(failures)" skipped="\#(skipped)" time="\#(seconds)">"# + "\n"
        for result in results {
            xml += #"  <testcase classname="siwa.check" name="\#(result.check.rawValue)">"#
            switch result.outcome {
            case .failed where result.failsRun:
                xml += #"<failure message="\#(escape(result.detail))">\#(escape(result.check.fix))</failure>"#
            case .notRun: xml += #"<skipped message="\#(escape(result.detail))"/>"#
            default: xml += "<system-out>\(escape(result.detail))</system-out>"
            }
            xml += "</testcase>\n"
        }
        return xml + "</testsuite>\n"
    }
}

extension CheckResult.Outcome {
    static let allOutcomes: [CheckResult.Outcome] = [.passed, .failed, .noted, .notRun]
}
