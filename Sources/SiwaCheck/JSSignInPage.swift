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
        for tag in html.matches(of: #/(?is)<meta\b([^>]*)>/#) {
            let attributes = String(tag.1)
            guard let name = StartForm.attribute("name", in: attributes), name.hasPrefix("appleid-signin-"),
                let option = names[String(name.dropFirst("appleid-signin-".count))],
                let content = StartForm.attribute("content", in: attributes)
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
        let option = #/\b(clientId|redirectURI|scope|state|nonce|usePopup)\s*:\s*(?:"([^"]*)"|'([^']*)'|(true|false)\b)/#
        for match in arguments.matches(of: option) {
            options[String(match.1)] = (match.2 ?? match.3 ?? match.4).map(String.init) ?? ""
        }
        return options["clientId"] == nil ? nil : options
    }
}
