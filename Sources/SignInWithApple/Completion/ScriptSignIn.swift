import AppleIDProtocol
import Foundation

/// A sign-in that Sign in with Apple JS runs in your page (spec §13), started by
/// ``SignInWithAppleClient/startScriptSignIn(scopes:usePopup:locale:browser:)``: what the page
/// passes to `AppleID.auth.init`, and where it loads the script from.
///
/// Apple's script sends no PKCE challenge, so the sign-in is protected by its single-use `state`,
/// its nonce and the browser binding, as every web sign-in of the kit is.
public struct ScriptSignIn: Sendable, Hashable {
    public var clientID: String
    /// The scopes, space-separated, as `init` takes them.
    public var scope: String
    public var redirectURI: String
    public var state: String
    /// The nonce as it is sent (hashed when the configuration's convention says so).
    public var nonce: String
    /// `true`: the popup (`response_mode=web_message`); `false`: the script's redirect (`form_post`).
    public var usePopup: Bool
    /// `appleid.auth.js` for the locale, from Apple's CDN or from the Apple ID server of the environment.
    public var scriptURL: String

    public init(
        clientID: String, scope: String, redirectURI: String, state: String, nonce: String, usePopup: Bool, scriptURL: String
    ) {
        self.clientID = clientID
        self.scope = scope
        self.redirectURI = redirectURI
        self.state = state
        self.nonce = nonce
        self.usePopup = usePopup
        self.scriptURL = scriptURL
    }

    /// `AppleID.auth.init`'s argument as JSON, safe to place inside a `<script>` element: `<`, `>`
    /// and `&` are written as `\u` escapes, so no value can close the element.
    public var initOptionsJSON: String {
        let fields: [(String, String)] = [
            ("clientId", clientID), ("scope", scope), ("redirectURI", redirectURI), ("state", state), ("nonce", nonce),
        ]
        let strings = fields.map { "\(Self.quoted($0.0)):\(Self.quoted($0.1))" }
        return "{" + (strings + ["\"usePopup\":\(usePopup)"]).joined(separator: ",") + "}"
    }

    /// A JSON string literal for `text`, with everything that could end a `<script>` escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "<", ">", "&", "\u{2028}", "\u{2029}": out += String(format: "\\u%04x", scalar.value)
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension AppleEnvironment {
    /// Where Sign in with Apple JS is loaded from for `locale` (such as `en_US`): Apple's CDN for
    /// Apple's service, the Apple ID server's own copy (at Apple's path) for any other.
    public func scriptURL(locale: String = "en_US") -> String {
        let path = "/appleauth/static/jsapi/appleid/1/\(locale)/appleid.auth.js"
        return baseURL == AppleEnvironment.production.baseURL ? "https://appleid.cdn-apple.com" + path : baseURL + path
    }
}
