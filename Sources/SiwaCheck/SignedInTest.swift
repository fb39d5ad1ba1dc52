/// How the check tells that a browser is signed in, when the app has no probe URL (issue 20's
/// `--signed-in-when`): judged on the page the callback ended at, or on the browser's cookies.
public enum SignedInTest: Sendable, Hashable {
    /// The browser holds this cookie of the app.
    case cookie(String)
    /// The callback ended, after its redirects, at this URL (query and fragment aside).
    case redirect(String)
    /// The page the callback ended at contains this text.
    case body(String)

    /// `cookie:NAME`, `redirect:URL` or `body:TEXT`.
    public init?(argument: String) {
        guard let colon = argument.firstIndex(of: ":") else { return nil }
        let value = String(argument[argument.index(after: colon)...])
        guard !value.isEmpty else { return nil }
        switch argument[..<colon] {
        case "cookie": self = .cookie(value)
        case "redirect": self = .redirect(value)
        case "body": self = .body(value)
        default: return nil
        }
    }

    func isSignedIn(_ browser: SimulatedBrowser, app: String) -> Bool {
        switch self {
        case .cookie(let name): return browser.hasCookie(name, for: app)
        case .redirect(let url): return browser.lastPage.map { Self.withoutQuery($0.url) == Self.withoutQuery(url) } ?? false
        case .body(let text): return browser.lastPage?.body.contains(text) ?? false
        }
    }

    static func withoutQuery(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
}
