import AppleIDProtocol
import Foundation

struct PlaygroundStart {
    let title = "Playground"
    let clientID: String
    let redirectURI: String
    let state: String
    let nonce: String
    /// Said when the server's clock is shifted: every relying party then sees its tokens from the
    /// future (or the past), and only `siwa clock reset` helps.
    let clockNotice: String?

    static func clockNotice(offset: TimeInterval) -> String? {
        let seconds = Int(offset.rounded())
        guard seconds != 0 else { return nil }
        return "This server's clock is shifted by \(seconds > 0 ? "+" : "")\(seconds) s: relying parties see its tokens as issued "
            + (seconds > 0 ? "in the future" : "in the past") + " and may refuse them. `siwa clock reset` undoes the shift."
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

    let title = "Playground"
    let action: String
    var callback: Callback?
    var stateCheck: String?
    var tokenResponse: String?
    var tokenError: TokenError?
    var idTokenHeader: String?
    var idTokenClaims: String?
    var verification: Lines?
    /// The run whose refresh token the Refresh and Revoke forms act on (the token stays on the server).
    var run: String?
    var revoked = false

    init(action: String) { self.action = action }

    static func prettyJSON(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    static func prettyJSON(bytes: [UInt8]) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .withoutEscapingSlashes])
        else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: data, as: UTF8.self)
    }
}
