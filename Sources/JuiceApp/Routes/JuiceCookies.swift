import Hummingbird

/// Juice's cookies: HttpOnly, SameSite=Lax, Path=/; over HTTPS also Secure and named `__Host-…`,
/// which browsers accept only from https, with Path=/ and no Domain: a sibling subdomain or a
/// plain-http page cannot plant or overwrite them. The static names are the plain-http ones.
struct JuiceCookies: Sendable {
    static let session = "juice_session"
    static let browser = "juice_browser"
    static let link = "juice_link"

    let secure: Bool
    let sessionLifetime: Int

    func session(_ token: String) -> Cookie { cookie(Self.session, token, maxAge: sessionLifetime) }
    func browser(_ token: String) -> Cookie { cookie(Self.browser, token, maxAge: 365 * 24 * 3600) }
    func link(_ token: String) -> Cookie { cookie(Self.link, token, maxAge: 15 * 60) }
    func expired(_ name: String) -> Cookie { cookie(name, "", maxAge: 0) }

    /// The name the browser keeps the cookie `name` (a static name above) under.
    func name(_ name: String) -> String { secure ? "__Host-" + name : name }

    /// The value of the cookie `name` (a static name above) that `request` carries.
    func value(_ name: String, in request: Request) -> String? { request.cookies[self.name(name)]?.value }

    private func cookie(_ name: String, _ value: String, maxAge: Int) -> Cookie {
        Cookie(name: self.name(name), value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
