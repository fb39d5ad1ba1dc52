import Foundation

/// A start page that signs in with Sign in with Apple JS instead of redirecting: the request its
/// script would send to `/auth/authorize`, read from the page's `appleid-signin-*` meta tags or its
/// `AppleID.auth.init({…})` options (literal strings only), with the parameters the script adds
/// (spec §13.2). The check approves through the admin API, so the script itself never has to run.
enum JSSignInPage {
    /// The page configures the popup: its answer goes to the page's own script (`web_message`),
    /// which each app handles in its own way, so there is no callback the check can deliver.
    struct PopupOnly: Error, CustomStringConvertible {
        var description: String {
            "the start page signs in with Sign in with Apple JS in a popup (usePopup): siwa check delivers callbacks "
                + "to a Return URL, so point --start at a page whose script redirects (usePopup false)"
        }
    }

    /// The authorize request the script would send, or `nil` when the page configures no script.
    static func authorizeRequest(in html: String) throws -> [String: String]? {
        guard let options = metaOptions(in: html) ?? initOptions(in: html), let clientID = options["clientId"] else { return nil }
        if options["usePopup"] == "true" { throw PopupOnly() }
        var request = ["client_id": clientID, "response_type": "code id_token", "response_mode": "form_post"]
        request["redirect_uri"] = options["redirectURI"]
        request["state"] = options["state"]
        request["scope"] = options["scope"]
        request["nonce"] = options["nonce"]
        request["frame_id"] = UUID().uuidString.lowercased()
        return request.filter { !$0.value.isEmpty }
    }

    /// `<meta name="appleid-signin-client-id" content="…">` and its siblings, as the script reads them.
    static func metaOptions(in html: String) -> [String: String]? {
        let names = [
            "client-id": "clientId", "redirect-uri": "redirectURI", "scope": "scope", "state": "state", "nonce": "nonce",
            "use-popup": "usePopup",
        ]
        var options: [String: String] = [:]
        for tag in matches(of: #"<meta\b[^>]*>"#, in: html) {
            let attributes = Self.attributes(of: tag)
            guard let name = attributes["name"], name.hasPrefix("appleid-signin-"),
                let option = names[String(name.dropFirst("appleid-signin-".count))], let content = attributes["content"]
            else { continue }
            options[option] = content
        }
        return options["clientId"] == nil ? nil : options
    }

    /// The literal options of `AppleID.auth.init({ clientId: '…', … })`.
    static func initOptions(in html: String) -> [String: String]? {
        guard let call = html.range(of: "AppleID.auth.init(") else { return nil }
        let arguments = String(html[call.upperBound...].prefix { $0 != ")" })
        var options: [String: String] = [:]
        let pattern = #"\b(clientId|redirectURI|scope|state|nonce|usePopup)\s*:\s*(?:"([^"]*)"|'([^']*)'|(true|false)\b)"#
        for groups in captureGroups(of: pattern, in: arguments) {
            options[groups[0]] = groups.dropFirst().first { !$0.isEmpty } ?? ""
        }
        return options["clientId"] == nil ? nil : options
    }

    /// An HTML tag's attributes, values unescaped (`&amp;`, `&quot;`, `&#39;`, `&lt;`, `&gt;`).
    static func attributes(of tag: String) -> [String: String] {
        var attributes: [String: String] = [:]
        for groups in captureGroups(of: #"([A-Za-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')"#, in: tag) {
            let value = groups.dropFirst().first { !$0.isEmpty } ?? ""
            attributes[groups[0].lowercased()] = unescaped(value)
        }
        return attributes
    }

    static func unescaped(_ text: String) -> String {
        [("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")].reduce(text) {
            $0.replacingOccurrences(of: $1.0, with: $1.1)
        }
    }

    private static func matches(of pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return [] }
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range, in: text).map { String(text[$0]) }
        }
    }

    /// For each match, its capture groups (an empty string for a group that did not take part).
    private static func captureGroups(of pattern: String, in text: String) -> [[String]] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).map { index in Range(match.range(at: index), in: text).map { String(text[$0]) } ?? "" }
        }
    }
}
