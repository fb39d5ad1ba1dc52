import Foundation

/// Says how a `redirect_uri` differs from the nearest registered Return URL: the diagnostic a
/// developer needs when Apple only answers "Invalid web redirect url." (spec §12: exact match).
public enum ReturnURLDifference {
    /// For example "differs from the registered https://a.example.com/cb only by a trailing slash".
    public static func explain(_ given: String, registered: [String]) -> String {
        guard !registered.isEmpty else { return "no Return URL is registered for this client" }
        let ranked = registered.map { ($0, differences(given, $0)) }.min { $0.1.count < $1.1.count }
        guard let (nearest, parts) = ranked else { return "" }
        if parts.isEmpty { return "differs from the registered \(nearest) in its encoding" }
        return "differs from the registered \(nearest) only by " + parts.joined(separator: " and ")
    }

    static func differences(_ given: String, _ registered: String) -> [String] {
        guard let a = URLComponents(string: given), let b = URLComponents(string: registered) else { return ["its form"] }
        var parts: [String] = []
        if a.scheme != b.scheme { parts.append("its scheme (\(UntrustedText.excerpt(a.scheme ?? "none")) instead of \(b.scheme ?? "none"))") }
        if a.host != b.host {
            parts.append(
                a.host?.lowercased() == b.host?.lowercased() ? "the case of its host" : "its host (\(UntrustedText.excerpt(a.host ?? "none")))")
        }
        if a.port != b.port { parts.append("its port (\(a.port.map(String.init) ?? "none") instead of \(b.port.map(String.init) ?? "none"))") }
        if a.path != b.path {
            if a.path + "/" == b.path {
                parts.append("a missing trailing slash")
            } else if a.path == b.path + "/" {
                parts.append("a trailing slash")
            } else if a.path.lowercased() == b.path.lowercased() {
                parts.append("the case of its path")
            } else {
                parts.append("its path (\(a.path.isEmpty ? "empty" : UntrustedText.excerpt(a.path)) instead of \(b.path))")
            }
        }
        if a.query != b.query { parts.append("its query") }
        if a.fragment != b.fragment { parts.append("a fragment") }
        return parts
    }
}
