import AppleIDProtocol

/// Apple's refusal of a request (`{"error":"invalid_client"}` and the like), with what the kit could
/// find out about why.
///
/// Apple's answers are deliberately terse. For `invalid_client` the kit inspects the client secret it
/// just sent (``ClientSecretInspector``) and lists the rules it breaks, then what only Apple can
/// check; for `invalid_grant` it names the rule behind Apple's description.
///
/// ```swift
/// do {
///     _ = try await siwa.tokens.exchange(code: code, redirectURI: redirectURI)
/// } catch let error as AppleServiceError where error.refusal?.code == .invalidGrant {
///     logger.warning("sign-in refused", metadata: ["why": "\(error)"])  // causes included
/// }
/// ```
public struct AppleRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The OAuth `error`.
    public var code: OAuthErrorCode
    /// Apple's `error_description`, verbatim.
    public var errorDescription: String?
    /// The HTTP status of the answer.
    public var status: Int
    /// What most likely went wrong, most likely first; each a sentence that says what to change.
    public var likelyCauses: [String]
    /// For `invalid_client`: the kit's inspection of the client secret that was sent.
    public var clientSecretReport: ClientSecretInspector.Report?

    public init(
        code: OAuthErrorCode, errorDescription: String?, status: Int, likelyCauses: [String] = [],
        clientSecretReport: ClientSecretInspector.Report? = nil
    ) {
        self.code = code
        self.errorDescription = errorDescription
        self.status = status
        self.likelyCauses = likelyCauses
        self.clientSecretReport = clientSecretReport
    }

    /// `Apple refused the request (400): invalid_grant — <Apple's description>`, then the likely causes, one per line.
    public var description: String {
        var text = "Apple refused the request (\(status)): \(code.rawValue)" + (errorDescription.map { " — \($0)" } ?? "")
        if !likelyCauses.isEmpty { text += "\nLikely causes:" + likelyCauses.map { "\n  - " + $0 }.joined() }
        return text
    }
}
