import AppleIDProtocol
import AppleIDProvider
import Crypto
import Hummingbird

/// The cookies of the server's pages: a browser binding (an interaction only advances in the browser
/// that started it), the sign-in pages' Apple ID session, and the account, console and playground pages'
/// own. All are HttpOnly and SameSite=Lax (or Strict); only hashes of their values are stored.
///
/// Over HTTPS every one is `Secure` and named `__Host-…` with `Path=/` and no `Domain`: browsers take
/// such a cookie only from this very origin over https, so a sibling subdomain or a plain-http page
/// cannot plant or overwrite it. On plain-http development (127.0.0.1) the names stay plain and the
/// paths narrow. The static names here and on the endpoints are the plain names.
struct BrowserCookies: Sendable {
    static let bindingName = "siwa_browser"
    static let sessionName = "siwa_session"

    let random: any RandomSource
    /// Secure cookies when the server is reached over HTTPS.
    let secure: Bool
    /// The form tokens derived from these cookies.
    let formTokens: FormTokens

    /// The name the browser keeps the cookie `name` (a plain name) under.
    func name(_ name: String) -> String { secure ? "__Host-" + name : name }

    /// The value of the cookie `name` (a plain name) in `request`.
    func value(_ name: String, in request: Request) -> String? { request.cookies[self.name(name)]?.value }

    /// The cookie `name` (a plain name), scoped to `path` on plain http and to `/` (as `__Host-` requires) on https.
    func cookie(_ name: String, value: String, path: String, maxAge: Int? = nil, sameSite: Cookie.SameSite = .lax) -> Cookie {
        Cookie(name: self.name(name), value: value, maxAge: maxAge, path: secure ? "/" : path, secure: secure, httpOnly: true, sameSite: sameSite)
    }

    func browserBinding(in request: Request) -> (value: String, isNew: Bool) {
        if let value = value(Self.bindingName, in: request), value.count == 64 { return (value, false) }
        return (random.hex(bytes: 32), true)
    }

    func bindingValue(in request: Request) -> String? { value(Self.bindingName, in: request) }

    /// The sign-in pages' session cookie value (never the account pages'), if `request` carries one.
    func sessionValue(in request: Request) -> String? { value(Self.sessionName, in: request) }

    func bindingCookie(_ value: String) -> Cookie { cookie(Self.bindingName, value: value, path: "/auth") }

    func sessionCookie(_ value: String, maxAge: Int) -> Cookie { cookie(Self.sessionName, value: value, path: "/", maxAge: maxAge) }
}

/// The tokens the pages' forms carry: HMAC-SHA256 of an HttpOnly cookie under a server secret
/// (``ServerOptions/formTokenKey``, derived from the storage key so that every instance on one
/// database agrees and it survives restarts).
///
/// A token computed from the cookie alone could be forged by whoever can plant that cookie (a
/// sibling subdomain, or another port of 127.0.0.1: cookies ignore ports), which turns the login
/// forms into login CSRF. Without the secret a planted cookie is worth nothing.
struct FormTokens: Sendable {
    let key: SymmetricKey

    /// The token for the form of `purpose` (such as `account-login-csrf:`) in the browser holding `cookie`.
    func token(_ purpose: String, _ cookie: String) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Array((purpose + cookie).utf8), using: key))
    }

    /// Whether `submitted` is that token, compared in constant time.
    func matches(_ submitted: String?, _ purpose: String, _ cookie: String) -> Bool {
        guard let submitted else { return false }
        return ConstantTime.equal(submitted, token(purpose, cookie))
    }
}
