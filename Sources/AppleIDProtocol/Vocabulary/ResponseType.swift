/// The `response_type` of an authorization request: `code` or `code id_token` (spec §3.1).
///
/// The words are an unordered set (OAuth 2.0 Multiple Response Types §5), so `id_token code`
/// means the same as `code id_token`.
public struct ResponseType: Hashable, Sendable {
    public let includesCode: Bool
    public let includesIDToken: Bool

    public static let code = ResponseType(includesCode: true, includesIDToken: false)
    public static let codeIDToken = ResponseType(includesCode: true, includesIDToken: true)

    public init(includesCode: Bool, includesIDToken: Bool) {
        self.includesCode = includesCode
        self.includesIDToken = includesIDToken
    }

    /// Parses the space-separated words; `nil` for anything but `code` and `code id_token`.
    public init?(parsing raw: String) {
        let words = raw.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard Set(words).count == words.count else { return nil }
        switch Set(words) {
        case ["code"]: self = .code
        case ["code", "id_token"]: self = .codeIDToken
        default: return nil
        }
    }

    public var rawValue: String { includesIDToken ? "code id_token" : "code" }
}
