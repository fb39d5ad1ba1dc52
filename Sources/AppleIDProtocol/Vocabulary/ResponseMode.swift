/// How the authorization result travels back to the `redirect_uri`.
public struct ResponseMode: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Parameters in the query string of a redirect.
    public static let query = ResponseMode(rawValue: "query")
    /// Parameters in the fragment of a redirect.
    public static let fragment = ResponseMode(rawValue: "fragment")
    /// An auto-submitted HTML form that POSTs the parameters (required whenever scopes are asked).
    public static let formPost = ResponseMode(rawValue: "form_post")
    /// Undocumented mode of Apple's JS popup: `postMessage` to the opener.
    public static let webMessage = ResponseMode(rawValue: "web_message")

    public static let all: [ResponseMode] = [.query, .fragment, .formPost, .webMessage]
}
