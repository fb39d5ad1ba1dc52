import Foundation
import HummingbirdTesting

/// `/account`'s sign-in steps as a browser fills them in, with each form's CSRF token.
enum AccountPages {
    /// The password step: the sign-in page's form, posted.
    static func signIn(
        _ browser: Browser, appleID: String = TestServer.maria.appleID, password: String = TestServer.maria.password
    ) async throws -> TestResponse {
        let page = try await browser.get("/account")
        let csrf = HTML.hiddenInputs(page.text)["csrf"] ?? ""
        return try await browser.post("/account/sign-in", form: [("csrf", csrf), ("apple_id", appleID), ("password", password)])
    }

    /// The code step, posted from the code page `codePage` (its CSRF token).
    static func verify(_ browser: Browser, codePage: TestResponse, code: String) async throws -> TestResponse {
        let csrf = HTML.hiddenInputs(codePage.text)["csrf"] ?? ""
        return try await browser.post("/account/verify", form: [("csrf", csrf), ("code", code)])
    }
}
