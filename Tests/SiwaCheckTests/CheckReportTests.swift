import Foundation
import Testing

@testable import SiwaCheck

/// What `siwa check` prints and writes for CI: a check that did not run is never a pass.
@Suite("siwa check: the report")
struct CheckReportTests {
    static let results = [
        CheckResult(.callbackBaseline, .passed, "the genuine callback signed in"),
        CheckResult(.tokenAlgNone, .failed, "the app signed in with alg none"),
        CheckResult(.requestPKCE, .failed, "no PKCE"),
        CheckResult(.notifyBaseline, .notRun, "not run: needs --notifications"),
    ]

    @Test("JUnit marks a failed check as a failure with its fix, and a check that did not run as skipped")
    func junit() {
        let xml = CheckReport(results: Self.results, seconds: 1).junit
        #expect(xml.contains(#"tests="4" failures="1" skipped="1""#))
        #expect(
            xml.contains(#"name="token.alg-none"><failure message="the app signed in with alg none">accept RS256 only; never alg none</failure>"#))
        #expect(xml.contains(#"name="notify.baseline"><skipped message="not run: needs --notifications"/>"#))
        // Advice is named by its class and reported, not a failure.
        #expect(xml.contains(#"<testcase classname="siwa.check.advice" name="request.pkce"><system-out>advice: no PKCE;"#))
        #expect(xml.contains(#"<testcase classname="siwa.check.required" name="token.alg-none">"#))
    }

    @Test("JUnit with --strict counts failed advice as a failure")
    func strictJUnit() {
        let xml = CheckReport(results: Self.results, seconds: 1, strict: true).junit
        #expect(xml.contains(#"tests="4" failures="2" skipped="1""#))
        #expect(xml.contains(#"name="request.pkce"><failure message="no PKCE">"#))
    }

    @Test("a failed required check fails the run; failed advice only with --strict; a check that did not run never")
    func exitStatus() {
        #expect(CheckReport(results: Self.results, seconds: 1).failed)
        let advice = [CheckResult(.requestPKCE, .failed, "no PKCE"), CheckResult(.tokenHash, .failed, "wrong at_hash accepted")]
        #expect(!CheckReport(results: advice, seconds: 1).failed)
        #expect(CheckReport(results: advice, seconds: 1, strict: true).failed)
        let notRun = [CheckResult(.callbackBaseline, .passed, "signed in"), CheckResult(.notifyBaseline, .notRun, "not run")]
        #expect(!CheckReport(results: notRun, seconds: 1, strict: true).failed)
    }

    @Test("the classes: at_hash, the two subs, PKCE and scopes are advice; forged tokens, state, audience, the form's id_token are required")
    func classes() {
        let advice = CheckID.allCases.filter { $0.checkClass == .advice }
        #expect(Set(advice).isSuperset(of: [.tokenHash, .tokenSubjectMismatch, .requestPKCE, .requestScopes]))
        let required: [CheckID] = [
            .requestState, .callbackState, .callbackReplay, .callbackFormIdentityToken, .tokenAlgNone, .tokenWrongAudience, .tokenExpired,
            .tokenNonce, .trustUserEmail, .notifyUnknownKey,
        ]
        #expect(required.allSatisfy { $0.checkClass == .required })
    }

    @Test("JSON names each check, its class, its result and, when it failed, its fix")
    func json() throws {
        let text = try CheckReport(results: Self.results, seconds: 1).json()
        #expect(text.contains(#""check" : "notify.baseline""#) && text.contains(#""result" : "not run""#))
        #expect(text.contains(#""fix" : "accept RS256 only; never alg none""#))
        #expect(text.contains(#""class" : "advice""#) && text.contains(#""class" : "required""#))
        #expect(text.contains(#""failed" : true"#) && text.contains(#""strict" : false"#))
    }

    @Test("the table shows each check's class; failed advice reads \"advice\" and is counted apart")
    func table() {
        let lines = CheckReport(results: Self.results, seconds: 1).table.split(separator: "\n").map(String.init)
        let pkce = lines.first { $0.hasPrefix("request.pkce") }
        #expect(pkce?.split(separator: " ", omittingEmptySubsequences: true).prefix(3) == ["request.pkce", "advice", "advice"])
        #expect(lines.last?.hasPrefix("1 passed, 1 failed, 1 advice, 1 not run") == true)
    }

    @Test("PKCE is followed only with S256; scopes only name and email")
    func requestAdvice() {
        #expect(AppChecker.pkceFinding(["code_challenge": "x", "code_challenge_method": "S256"]).outcome == .passed)
        #expect(AppChecker.pkceFinding(["code_challenge": "x"]).outcome == .failed)
        #expect(AppChecker.pkceFinding([:]).outcome == .failed)
        #expect(AppChecker.scopesFinding(["name", "email"]).outcome == .passed)
        #expect(AppChecker.scopesFinding([]).outcome == .passed)
        #expect(AppChecker.scopesFinding(["openid", "email", "name"]).outcome == .failed)
    }

    @Test("a start page's sign-in form is found: hidden fields only, never a password form or the popup's result form")
    func startForm() {
        let html = """
            <form id="r" method="post" action="/auth/apple/popup" hidden><input type="hidden" name="code"></form>
            <form method="post" action="/signin/apple"><input type="hidden" name="csrf" value="a&amp;b"><input type="hidden" name="next" value="/"></form>
            <form method="post" action="/signin"><input type="hidden" name="csrf" value="x"><input type="password" name="password"></form>
            """
        let forms = StartForm.forms(in: html)
        #expect(forms.map(\.action) == ["/signin/apple"])
        #expect(forms.first?.fields.map { "\($0.0)=\($0.1)" } == ["csrf=a&b", "next=/"])
    }

    @Test("a start form without action (django-allauth's \"Continue\") posts to the page's own URL")
    func startFormWithoutAction() throws {
        let html = #"<form method="post"><input type="hidden" name="csrfmiddlewaretoken" value="t"><button type="submit">Continue</button></form>"#
        let form = try #require(StartForm.forms(in: html).first)
        let page = "http://127.0.0.1:8000/accounts/apple/login/?process=login"
        #expect(form.url(onPage: page)?.absoluteString == page)
        #expect(StartForm(action: "/signin/apple", fields: []).url(onPage: page)?.absoluteString == "http://127.0.0.1:8000/signin/apple")
        #expect(form.fields.map(\.0) == ["csrfmiddlewaretoken"])
    }

    @Test("the request log's new entries are found where the earlier read continues, also once old entries dropped out")
    func newRequestLogEntries() {
        func entry(_ endpoint: String, _ second: Int) -> ServerAdmin.LoggedRequest {
            .init(endpoint: endpoint, at: Date(timeIntervalSince1970: 1_795_590_000 + Double(second)), outcome: "ok", reason: "", proven: true)
        }
        let earlier = [entry("token", 3), entry("token", 2), entry("authorize", 1)]
        // Bounded at three entries: the oldest dropped out as two new ones came.
        let log = [entry("revoke", 5), entry("token", 4), entry("token", 3)]
        #expect(ServerAdmin.newEntries(log, since: earlier).map(\.endpoint) == ["revoke", "token"])
        #expect(ServerAdmin.newEntries(earlier, since: earlier).isEmpty)
        #expect(ServerAdmin.newEntries(log, since: []).count == 3)
    }
}

@Suite("siwa check reads a Sign in with Apple JS page")
struct JSSignInPageTests {
    @Test("meta tags, unescaped, give the request the script would send with form_post")
    func metaTags() throws {
        let html = """
            <meta name="appleid-signin-client-id" content="com.example.web"><meta content='name email' name='appleid-signin-scope'>
            <meta name="appleid-signin-redirect-uri" content="https://example.com/cb?a=1&amp;b=2"><meta name="appleid-signin-state" content="s1">
            """
        let request = try #require(try JSSignInPage.authorizeRequest(in: html))
        #expect(request["client_id"] == "com.example.web")
        #expect(request["redirect_uri"] == "https://example.com/cb?a=1&b=2")
        #expect(request["scope"] == "name email")
        #expect(request["state"] == "s1")
        #expect(request["nonce"] == nil)
        #expect(request["response_type"] == "code id_token")
        #expect(request["response_mode"] == "form_post")
    }

    @Test("a popup page is refused with a reason, a page without the script's configuration is not a JS page")
    func popupAndNone() throws {
        let popup = "<script>AppleID.auth.init({clientId : \"a.b\", redirectURI: 'https://x.example/cb', usePopup : true})</script>"
        #expect(throws: JSSignInPage.PopupOnly.self) { try JSSignInPage.authorizeRequest(in: popup) }
        #expect(try JSSignInPage.authorizeRequest(in: "<meta name=\"description\" content=\"shop\">") == nil)
    }
}
