import AppleIDProvider
import Testing

@Suite("Return URL and domain rules (spec §12)")
struct ReturnURLRuleTests {
    @Test(
        "the portal's rules refuse these Return URLs",
        arguments: [
            "http://example.com/callback",  // not https
            "https://192.0.2.10/callback",  // an IP address
            "https://[2001:db8::1]/callback",  // an IPv6 address
            "https://localhost/callback",  // localhost
            "http://127.0.0.1:8080/callback",  // loopback outside development mode
            "https://example.com/callback#top",  // a fragment
            "https://example/callback",  // no domain name
            "/callback",  // relative
            "ftp://example.com/callback",
            "https://user:pw@example.com/callback",
            "",
        ])
    func refused(_ url: String) {
        #expect(throws: ConsoleError.self) { try ReturnURL.check(url, developmentMode: false) }
    }

    @Test("an absolute https URL with a domain name is accepted as it was typed, and is not development-only")
    func accepted() throws {
        let url = try ReturnURL.check("https://shop.example.com/auth/apple/callback/", developmentMode: false)
        #expect(url.value == "https://shop.example.com/auth/apple/callback/")
        #expect(!url.isDevelopmentOnly)
    }

    @Test(
        "development mode allows http and https on 127.0.0.1 and localhost, marked development-only",
        arguments: ["http://127.0.0.1:9091/callback", "http://localhost:3000/cb", "https://localhost/cb"])
    func developmentOnly(_ url: String) throws {
        let checked = try ReturnURL.check(url, developmentMode: true)
        #expect(checked.isDevelopmentOnly)
        #expect(ReturnURL.isDevelopmentOnly(url))
    }

    @Test("development mode still refuses other http hosts, other IP addresses and fragments")
    func developmentStillStrict() {
        for url in ["http://example.com/cb", "http://192.168.1.2/cb", "http://127.0.0.1/cb#x"] {
            #expect(throws: ConsoleError.self, "\(url)") { try ReturnURL.check(url, developmentMode: true) }
        }
    }

    @Test("the messages say which rule was broken")
    func messages() {
        #expect(throws: ConsoleError.invalid("https://example.com/cb#x: Return URLs cannot contain a fragment (#).")) {
            try ReturnURL.check("https://example.com/cb#x", developmentMode: false)
        }
        #expect(throws: ConsoleError.invalid("http://example.com/cb: Return URLs must use https.")) {
            try ReturnURL.check("http://example.com/cb", developmentMode: false)
        }
    }

    @Test("Domains and Subdomains are bare host names", arguments: ["example.com", "Shop.Example.com", "a-b.example.co.uk"])
    func domains(_ name: String) throws {
        #expect(try DomainName.check(name) == name.lowercased())
    }

    @Test(
        "a scheme, a path, localhost or an IP address is not a domain",
        arguments: ["https://example.com", "example.com/x", "localhost", "10.0.0.1", "-x.com", "nodot"])
    func notDomains(_ name: String) {
        #expect(throws: ConsoleError.self) { try DomainName.check(name) }
    }
}

@Suite("How a redirect_uri differs from the registered Return URLs")
struct ReturnURLDifferenceTests {
    static let registered = ["https://shop.example.com/auth/callback", "https://other.example.org/cb"]

    @Test(
        "the nearest registered URL and the difference",
        arguments: [
            ("https://shop.example.com/auth/callback/", "https://shop.example.com/auth/callback only by a trailing slash"),
            ("https://shop.example.com/auth", "https://shop.example.com/auth/callback only by its path (/auth instead of /auth/callback)"),
            ("http://shop.example.com/auth/callback", "https://shop.example.com/auth/callback only by its scheme (http instead of https)"),
            ("https://shop.example.com:8443/auth/callback", "https://shop.example.com/auth/callback only by its port (8443 instead of none)"),
            ("https://Shop.example.com/auth/callback", "https://shop.example.com/auth/callback only by the case of its host"),
        ])
    func difference(given: String, expected: String) {
        #expect(ReturnURLDifference.explain(given, registered: Self.registered) == "differs from the registered " + expected)
    }

    @Test("a client without Return URLs says so")
    func none() {
        #expect(ReturnURLDifference.explain("https://x.example.com/", registered: []) == "no Return URL is registered for this client")
    }
}
