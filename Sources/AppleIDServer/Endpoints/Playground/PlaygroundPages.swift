import AppleIDProtocol
import Foundation

struct PlaygroundStart {
    let title = "Playground"
    let clientID: String
    let redirectURI: String
    let state: String
    let nonce: String
    /// Said when the server's clock is shifted: every relying party then sees its tokens from the
    /// future (or the past), and only `siwa clock reset` helps. It is HTML text: the command is quoted, not
    /// in Markdown backticks.
    let clockNotice: String?

    static func clockNotice(offset: TimeInterval) -> String? {
        let seconds = Int(offset.rounded())
        guard seconds != 0 else { return nil }
        return "This server's clock is shifted by \(seconds > 0 ? "+" : "")\(seconds) s: relying parties see its tokens as issued "
            + (seconds > 0 ? "in the future" : "in the past") + " and may refuse them. “siwa clock reset” undoes the shift."
    }
}

struct PlaygroundResult {
    struct Field {
        let name: String
        let value: String
    }

    struct TokenError {
        let error: String
        let description: String?
        let reason: String

        init(error: String, description: String?, reason: String) {
            self.error = error
            self.description = description
            self.reason = reason
        }

        init(_ error: OAuthError) {
            self.init(error: error.code.rawValue, description: error.errorDescription, reason: error.reason)
        }

        /// Refresh or revoke for a run this browser did not complete: the playground acts only on
        /// tokens its own run in this browser obtained.
        static let notThisBrowsersRun = TokenError(
            error: "not this browser's run", description: nil,
            reason: "the playground refreshes and revokes only tokens that a run in this browser obtained; start again")
    }

    /// Lines of a section that is shown only when there are any (Mustache sections test presence).
    struct Lines {
        let lines: [String]
    }

    struct Callback {
        let fields: [Field]
    }

    /// The error a callback brought (`error` and `state`), shown above the fields.
    struct CallbackError {
        let error: String
        let state: String
    }

    /// Whether the callback's `state` is this browser's; a refusal is shown as an error.
    struct StateCheck {
        let text: String
        let style: String

        static let matched = StateCheck(text: "state matches this browser's request", style: "hint")
        static let refused = StateCheck(
            text: "state is unknown, expired, already used or from another browser: refusing the callback", style: "message")
    }

    let title = "Playground"
    let wide = true
    let action: String
    var callback: Callback?
    var callbackError: CallbackError?
    var stateCheck: StateCheck?
    var tokenResponse: String?
    var tokenError: TokenError?
    var idTokenHeader: String?
    var idTokenClaims: String?
    var verification: Lines?
    /// The run whose refresh token the Refresh and Revoke forms act on (the token stays on the server).
    var run: String?
    var revoked = false

    init(action: String) { self.action = action }

    /// The token response in Apple's member order.
    static func prettyJSON(_ value: some OrderedJSONObject) -> String {
        OrderPreservingJSON.prettyPrinted(OrderedJSON.encode(value))
    }

    /// A token's header or claims as the token wrote them: members in their own order.
    static func prettyJSON(bytes: [UInt8]) -> String {
        OrderPreservingJSON.prettyPrinted(bytes)
    }
}
