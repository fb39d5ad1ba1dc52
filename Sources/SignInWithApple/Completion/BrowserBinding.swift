import AppleIDProtocol
import Crypto
import Foundation

/// The browser a sign-in belongs to: a random secret kept in a cookie of your site
/// (``SignInWithAppleClient/browserCookieName``, `HttpOnly`, `SameSite=Lax`), set when the sign-in starts.
///
/// Mint a new one (``random()``) at every start, never adopt the cookie a browser brings: a cookie can
/// be planted by a sibling subdomain, or by another port of the same host (cookies ignore ports), and
/// a binding its planter knows would let them finish the sign-in in their own browser.
///
/// Apple's `state` names a request, not a browser: anyone can take their own callback and replay it
/// in someone else's browser, which would sign that person into the attacker's account (login
/// CSRF). The kit keeps the hash of this secret with the started sign-in and completes it only in a
/// request that presents the same secret.
public struct BrowserBinding: Sendable, Hashable {
    /// The cookie's name on plain `http` (not `siwa_browser`, the Apple ID server's own: on 127.0.0.1
    /// cookies are shared across ports, so a local app and server would overwrite each other's). On
    /// https it carries the `__Host-` prefix: see ``SignInWithAppleClient/browserCookieName``.
    public static let cookieName = "apple_sign_in_browser"

    public let secret: String

    /// - Throws: ``BrowserBindingError/tooShort`` for a secret of fewer than 22 characters (128 bits of base64).
    public init(secret: String) throws {
        guard secret.utf8.count >= 22 else { throw BrowserBindingError.tooShort }
        self.secret = secret
    }

    private init(generated secret: String) { self.secret = secret }

    /// A new binding with 256 random bits (43 characters of base64url).
    public static func random() -> BrowserBinding {
        BrowserBinding(generated: AuthorizationRequestBuilder.randomToken())
    }

    /// The hash kept with the sign-in.
    var hash: String {
        Base64URL.encode(Array(SHA256.hash(data: Data(("browser\u{0}" + secret).utf8))))
    }

    /// Whether `hash` is this binding's, compared in constant time.
    func matches(_ hash: String) -> Bool {
        let mine = Array(self.hash.utf8)
        let theirs = Array(hash.utf8)
        guard mine.count == theirs.count else { return false }
        return zip(mine, theirs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension SignInWithAppleClient {
    /// Whether the binding cookie is `Secure`: unless the redirect URI is plain `http` (a local
    /// development server), browsers must send it over HTTPS only.
    public var browserCookieIsSecure: Bool { configuration.web?.redirectURI.hasPrefix("https:") ?? true }

    /// The binding cookie's name: `__Host-apple_sign_in_browser` when it is `Secure`, which browsers
    /// accept only from https, with `Path=/` and no `Domain`, so no sibling subdomain or plain-http
    /// page can set or overwrite it; `apple_sign_in_browser` on plain-http development.
    public var browserCookieName: String { browserCookieIsSecure ? "__Host-" + BrowserBinding.cookieName : BrowserBinding.cookieName }
}

/// Why a browser binding cannot be made. A struct with static members, so that a new reason breaks
/// no caller: `catch BrowserBindingError.tooShort`.
public struct BrowserBindingError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    public static let tooShort = Self(description: "a browser binding secret needs at least 22 characters of randomness (128 bits)")
}

extension BrowserBindingError: MatchableError {}
