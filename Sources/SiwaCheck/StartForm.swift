import Foundation

/// A sign-in form of an app's start page (Juice's "sign in with Apple in this window"): a POST form
/// with hidden fields only, so the check never submits a password form or Sign in with Apple JS's
/// popup result.
struct StartForm: Sendable {
    var action: String
    var fields: [(String, String)]

    /// `acceptingCheckboxes`: a confirmation form (delete my account), its checkboxes ticked.
    static func forms(in html: String, acceptingCheckboxes: Bool = false) -> [StartForm] {
        let form = #/(?is)<form\b([^>]*)>(.*?)</form>/#
        let input = #/(?is)<input\b([^>]*)>/#
        return html.matches(of: form).compactMap { match in
            let attributes = String(match.1)
            // No action submits to the page's own URL (HTML: the form's document), as django-allauth's
            // "Continue" page does: see ``url(onPage:)``.
            let action = attribute("action", in: attributes) ?? ""
            guard attribute("method", in: attributes)?.lowercased() == "post", !action.contains("popup"), !action.contains("callback")
            else { return nil }
            var fields: [(String, String)] = []
            for tag in String(match.2).matches(of: input) {
                let inputAttributes = String(tag.1)
                let type = attribute("type", in: inputAttributes)?.lowercased()
                guard type == "hidden" || (acceptingCheckboxes && type == "checkbox") else { return nil }
                if let name = attribute("name", in: inputAttributes) {
                    fields.append((name, attribute("value", in: inputAttributes) ?? (type == "checkbox" ? "on" : "")))
                }
            }
            return StartForm(action: action, fields: fields)
        }
    }

    /// Where the form posts from `page`: its action resolved against the page, the page itself without one.
    func url(onPage page: String) -> URL? {
        action.isEmpty ? URL(string: page) : URL(string: action, relativeTo: URL(string: page))?.absoluteURL
    }

    /// The value of `name="…"` (double or single quotes), with the few entities a template escapes.
    static func attribute(_ name: String, in attributes: String) -> String? {
        guard let regex = try? Regex(#"(?i)\b"# + name + #"\s*=\s*(?:"([^"]*)"|'([^']*)')"#),
            let match = attributes.firstMatch(of: regex),
            let value = (match.output[1].substring ?? match.output[2].substring).map(String.init)
        else { return nil }
        return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
