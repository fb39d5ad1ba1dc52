import Hummingbird

/// Juice's cookies: HttpOnly, SameSite=Lax, Path=/ (Secure when served over HTTPS).
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

    private func cookie(_ name: String, _ value: String, maxAge: Int) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
