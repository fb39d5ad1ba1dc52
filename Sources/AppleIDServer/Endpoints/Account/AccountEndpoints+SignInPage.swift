import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

extension AccountEndpoints {
    /// The password step. Its form carries a token derived from the login cookie (set here when the
    /// browser has none), which `/account/sign-in` requires.
    func signInPage(_ request: Request, locale: String, message: String? = nil, status: HTTPResponse.Status = .ok) throws -> Response {
        let existing = cookies.value(Self.loginCookie, in: request)?.filter(\.isHexDigit)
        let loginCookie = existing.flatMap { $0.count == 64 ? $0 : nil } ?? provider.random.hex(bytes: 32)
        var response = try renderer.render(
            AccountSignInPage(
                locale: locale, t: renderer.strings.table(locale), passwordStep: true, codeStep: false, appleID: nil, developmentCode: nil,
                message: message,
                csrf: cookies.formTokens.token("account-login-csrf:", loginCookie)),
            template: "account_sign_in", status: status)
        if loginCookie != existing {
            response.setCookie(cookies.cookie(Self.loginCookie, value: loginCookie, path: "/account"))
        }
        return response
    }
}
