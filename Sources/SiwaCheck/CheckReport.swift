import Foundation

/// The results of a run, rendered for people (a table), for scripts (`--json`) and for CI (`--junit`).
public struct CheckReport: Sendable {
    public var results: [CheckResult]
    public var seconds: Double
    /// `--strict`: a failed advice check fails the run too.
    public var strict: Bool

    public init(results: [CheckResult], seconds: Double, strict: Bool = false) {
        self.results = results
        self.seconds = seconds
        self.strict = strict
    }

    /// Non-zero exit status when a required check failed (or, with ``strict``, any check).
    public var failed: Bool { results.contains { $0.failsRun(strict: strict) } }

    /// What a result's column says: a failed advice check that does not fail the run is "advice".
    func shownOutcome(_ result: CheckResult) -> String {
        result.outcome == .failed && !result.failsRun(strict: strict) ? "advice" : result.outcome.rawValue
    }

    public var table: String {
        let rows = results.map {
            [$0.check.rawValue, $0.checkClass.rawValue, shownOutcome($0), $0.detail, $0.outcome == .failed ? $0.check.fix : ""]
        }
        let header = ["check", "class", "result", "what happened", "fix"]
        let widths = (0..<4).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            (0..<4).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") + "  " + row[4]
        }
        let counts = Dictionary(grouping: results, by: shownOutcome).mapValues(\.count)
        let summary = ["passed", "failed", "advice", "not run"].compactMap { label in counts[label].map { "\($0) \(label)" } }
        let strictness = strict ? " (--strict: advice fails the run)" : ""
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n\n" + summary.joined(separator: ", ")
            + String(format: " in %.1f s", seconds) + strictness + "\n"
    }

    public func json() throws -> String {
        struct Body: Encodable {
            var results: [Entry]
            var failed: Bool
            var strict: Bool
            var seconds: Double
        }
        struct Entry: Encodable {
            var check: String
            var `class`: String
            var result: String
            var detail: String
            var fix: String?
        }
        let body = Body(
            results: results.map {
                Entry(
                    check: $0.check.rawValue, class: $0.checkClass.rawValue, result: $0.outcome.rawValue, detail: $0.detail,
                    fix: $0.outcome == .failed ? $0.check.fix : nil)
            },
            failed: failed, strict: strict, seconds: seconds)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(body), as: UTF8.self)
    }

    /// JUnit XML: one test case per check, its class in `classname`; "not run" is skipped, never
    /// passed; a failed advice check is a failure only with ``strict``.
    public var junit: String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
                .replacingOccurrences(of: "\"", with: "&quot;")
        }
        let failures = results.filter { $0.failsRun(strict: strict) }.count
        let skipped = results.filter { $0.outcome == .notRun }.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuite name="siwa check" tests="\#(results.count)" failures="\#(failures)" skipped="\#(skipped)" time="\#(seconds)">"# + "\n"
        for result in results {
            xml += #"  <testcase classname="siwa.check.\#(result.checkClass.rawValue)" name="\#(result.check.rawValue)">"#
            if result.failsRun(strict: strict) {
                xml += #"<failure message="\#(escape(result.detail))">\#(escape(result.check.fix))</failure>"#
            } else if result.outcome == .notRun {
                xml += #"<skipped message="\#(escape(result.detail))"/>"#
            } else if result.outcome == .failed {
                xml += "<system-out>advice: \(escape(result.detail)); \(escape(result.check.fix))</system-out>"
            } else {
                xml += "<system-out>\(escape(result.detail))</system-out>"
            }
            xml += "</testcase>\n"
        }
        return xml + "</testsuite>\n"
    }
}
