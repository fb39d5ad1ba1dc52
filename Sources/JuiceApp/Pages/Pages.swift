import Hummingbird

/// Juice's pages: the template values every page shares (who is signed in, the CSRF token, the
/// Apple button's look), plus each page's own.
struct Pages: Sendable {
    let renderer: PageRenderer
    let buttonStyle: AppleButtonStyle

    func render(
        _ template: String, title: String, _ values: [String: Any?] = [:], context: JuiceRequestContext, status: HTTPResponse.Status = .ok,
        scriptSources: [String] = []
    ) throws -> Response {
        var all: [String: Any] = [
            "title": title, "csrf": context.csrfToken, "buttonStyle": buttonStyle.rawValue, "buttonColor": buttonStyle.scriptColor,
            "buttonBorder": buttonStyle == .whiteOutline ? "true" : "false", "signedIn": context.account != nil,
            "accountLabel": context.account.map { $0.displayName.isEmpty ? "Account" : $0.displayName } ?? "",
        ]
        all.merge(values.compactMapValues { $0 }) { _, page in page }
        return try renderer.render(template, Self.withoutEmptyStrings(all), status: status, scriptSources: scriptSources)
    }

    /// Mustache treats an empty string as true in `{{#name}}` sections; an empty value is no value.
    static func withoutEmptyStrings(_ values: [String: Any]) -> [String: Any] {
        values.compactMapValues { value in
            switch value {
            case let text as String: text.isEmpty ? nil : text
            case let nested as [String: Any]: withoutEmptyStrings(nested)
            default: value
            }
        }
    }

    func error(_ error: UserFacingError, context: JuiceRequestContext) throws -> Response {
        try render(
            "error", title: error.title,
            ["errorTitle": error.title, "errorMessage": error.message, "linkHref": error.linkHref, "linkLabel": error.linkLabel],
            context: context, status: error.status)
    }
}

/// The Sign in with Apple button's appearance (HIG, spec §16).
public enum AppleButtonStyle: String, Sendable, CaseIterable {
    /// For light backgrounds (the default).
    case black
    /// For dark backgrounds.
    case white
    /// For light backgrounds where white needs an edge.
    case whiteOutline = "white-outline"

    /// Sign in with Apple JS's `data-color` for this style.
    var scriptColor: String { self == .black ? "black" : "white" }
}
