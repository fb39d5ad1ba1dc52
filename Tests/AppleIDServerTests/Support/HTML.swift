import Foundation

/// Just enough HTML reading for the tests: hidden inputs, form actions, elements by id.
enum HTML {
    static func unescape(_ text: String) -> String {
        var result = text
        for (entity, character) in [
            ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&#x2F;", "/"), ("&#47;", "/"), ("&lt;", "<"), ("&gt;", ">"),
            ("&#34;", "\""), ("&#x3D;", "="), ("&#61;", "="), ("&#x60;", "`"), ("&amp;", "&"),
        ] {
            result = result.replacingOccurrences(of: entity, with: character)
        }
        return result
    }

    /// `name` → `value` of every `<input type="hidden">`.
    static func hiddenInputs(_ html: String) -> [String: String] {
        var fields: [String: String] = [:]
        let pattern = #/<input type="hidden" name="([^"]*)" value="([^"]*)">/#
        for match in html.matches(of: pattern) {
            fields[unescape(String(match.1))] = unescape(String(match.2))
        }
        return fields
    }

    /// Every `<input type="hidden">`, in the page's order.
    static func hiddenInputList(_ html: String) -> [(name: String, value: String)] {
        html.matches(of: #/<input type="hidden" name="([^"]*)" value="([^"]*)">/#).map { (unescape(String($0.1)), unescape(String($0.2))) }
    }

    static func formAction(_ html: String) -> String? {
        html.firstMatch(of: #/<form method="post" action="([^"]*)">/#).map { unescape(String($0.1)) }
    }

    static func element(id: String, in html: String) -> String? {
        let pattern = try? Regex("id=\"\(id)\"[^>]*>([^<]*)<")
        guard let pattern, let match = html.firstMatch(of: pattern), let text = match.output[1].substring else { return nil }
        return unescape(String(text))
    }
}
