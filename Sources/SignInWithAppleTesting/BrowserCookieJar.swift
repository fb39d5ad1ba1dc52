import Foundation

/// The cookies the emulated browser holds for the app under test, with the `SameSite` rule that
/// matters to Sign in with Apple: Apple's `form_post` is a cross-site POST, which carries only
/// `SameSite=None` cookies; a top-level GET navigation started elsewhere carries `Lax` and `None`,
/// never `Strict`. A cookie without `SameSite` counts as `Lax`, as browsers treat it.
struct BrowserCookieJar: Sendable {
    enum SameSite: Sendable { case strict, lax, none }

    /// How the request that carries the cookies came about.
    enum Context: Sendable {
        /// From the app's own pages (or a test's first request): every cookie.
        case sameSite
        /// A top-level GET navigation started on another site (a redirect back from Apple).
        case crossSiteNavigation
        /// A cross-site POST (Apple's `form_post` page submitting to the callback).
        case crossSitePost
    }

    private(set) var cookies: [(name: String, value: String, sameSite: SameSite)] = []

    init(_ initial: [String: String] = [:]) {
        for (name, value) in initial.sorted(by: { $0.key < $1.key }) { cookies.append((name, value, .lax)) }
    }

    /// The names and values held now.
    var values: [String: String] { Dictionary(cookies.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }) }

    /// The `Cookie` header a request in `context` carries, or nil when it carries none.
    func header(for context: Context) -> String? {
        let sent = cookies.filter { cookie in
            switch context {
            case .sameSite: true
            case .crossSiteNavigation: cookie.sameSite != .strict
            case .crossSitePost: cookie.sameSite == .none
            }
        }
        return sent.isEmpty ? nil : sent.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Takes the `Set-Cookie` headers of `response`: a new value replaces the old, `Max-Age=0` (or a
    /// negative one) removes the cookie.
    mutating func update(from response: AppResponse) {
        for header in response.headers where header.name.lowercased() == "set-cookie" {
            let parts = header.value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            var sameSite = SameSite.lax
            var removed = false
            for attribute in parts.dropFirst() {
                let lowered = attribute.lowercased()
                if lowered == "samesite=strict" { sameSite = .strict }
                if lowered == "samesite=none" { sameSite = .none }
                if lowered.hasPrefix("max-age="), let seconds = Int(lowered.dropFirst("max-age=".count)), seconds <= 0 { removed = true }
            }
            cookies.removeAll { $0.name == name }
            if !removed { cookies.append((name, value, sameSite)) }
        }
    }
}
