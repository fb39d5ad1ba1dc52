import Testing

@testable import SignInWithAppleTesting

@Suite("The emulated browser's cookies: SameSite as browsers apply it")
struct BrowserCookieRulesTests {
    static func jar() -> BrowserCookieJar {
        var jar = BrowserCookieJar()
        jar.update(
            from: AppResponse(
                status: 303,
                headers: [
                    ("Set-Cookie", "lax=1; Path=/; HttpOnly; SameSite=Lax"), ("Set-Cookie", "strict=2; SameSite=Strict"),
                    ("Set-Cookie", "none=3; Secure; SameSite=None"), ("Set-Cookie", "plain=4"),
                ]))
        return jar
    }

    @Test("same site: every cookie; a cross-site navigation: all but Strict; a cross-site POST: None only")
    func contexts() {
        let jar = Self.jar()
        #expect(jar.header(for: .sameSite) == "lax=1; strict=2; none=3; plain=4")
        #expect(jar.header(for: .crossSiteNavigation) == "lax=1; none=3; plain=4")
        #expect(jar.header(for: .crossSitePost) == "none=3")
    }

    @Test("a new value replaces the old; Max-Age=0 removes the cookie")
    func replaceAndRemove() {
        var jar = Self.jar()
        jar.update(from: AppResponse(status: 200, headers: [("set-cookie", "lax=9; SameSite=Lax"), ("Set-Cookie", "strict=; Max-Age=0")]))
        #expect(jar.values == ["lax": "9", "none": "3", "plain": "4"])
    }
}
