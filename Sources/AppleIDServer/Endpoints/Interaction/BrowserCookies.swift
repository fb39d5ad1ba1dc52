import AppleIDProvider
import Hummingbird

/// The two cookies of the sign-in pages: a browser binding (an interaction only advances in the
/// browser that started it) and the signed-in Apple ID session. Both are HttpOnly and SameSite=Lax;
/// only their hashes are stored.
struct BrowserCookies {
    static let bindingName = "siwa_browser"
    static let sessionName = "siwa_session"

    let random: any RandomSource
    /// Secure cookies when the server is reached over HTTPS.
    let secure: Bool

    func browserBinding(in request: Request) -> (value: String, isNew: Bool) {
        if let value = request.cookies[Self.bindingName]?.value, value.count == 64 { return (value, false) }
        return (random.hex(bytes: 32), true)
    }

    func bindingValue(in request: Request) -> String? { request.cookies[Self.bindingName]?.value }

    func session(in request: Request, store: any InteractionStore) async throws -> BrowserSession? {
        guard let value = request.cookies[Self.sessionName]?.value else { return nil }
        return try await store.browserSession(idHash: OpaqueToken.hash(value))
    }

    func bindingCookie(_ value: String) -> Cookie {
        Cookie(name: Self.bindingName, value: value, path: "/auth", secure: secure, httpOnly: true, sameSite: .lax)
    }

    func sessionCookie(_ value: String, maxAge: Int) -> Cookie {
        Cookie(name: Self.sessionName, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
