import Foundation
import Hummingbird

/// Form bodies of Juice's pages, decoded with Hummingbird's `URLEncodedFormDecoder`, CSRF checked.
enum FormInput {
    /// Decodes the body and checks its `csrf` field against the browser's token.
    static func decode<T: Decodable & CSRFProtected>(_ type: T.Type, from request: Request, context: JuiceRequestContext) async throws -> T {
        let form: T
        do {
            let body = try await request.body.collect(upTo: context.maxUploadSize)
            form = try URLEncodedFormDecoder().decode(type, from: String(buffer: body))
        } catch {
            throw UserFacingError(title: "We couldn't read this form", message: "Please go back and try again.")
        }
        guard !context.browserTokenIsNew, SecretToken.equal(form.csrf, context.csrfToken) else { throw UserFacingError.formExpired }
        return form
    }

    /// A page to return to: a path on this site only, so `next` cannot send anyone to another site.
    ///
    /// Browsers are lenient with `Location`: they drop tabs and newlines (`/\t/evil.example` becomes
    /// `//evil.example`, another host), read `\` as `/`, and some decode `%2F`. So `next` must be
    /// printable ASCII without spaces or backslashes, start with one `/` and not a second, have no
    /// scheme or host when parsed, and the same must hold once its percent-encoding is decoded.
    static func localPath(_ next: String?, default fallback: String = "/account") -> String {
        guard let next, next.utf8.count < 512, isPlainPath(next),
            let decoded = next.removingPercentEncoding, isPlainPath(decoded),
            let parsed = URLComponents(string: next), parsed.scheme == nil, parsed.host == nil
        else { return fallback }
        return next
    }

    private static func isPlainPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/"), bytes.count < 2 || bytes[1] != UInt8(ascii: "/") else { return false }
        // 0x21...0x7E: no control characters, no whitespace, nothing outside ASCII.
        return bytes.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\\") }
    }
}

/// A form that carries the browser's CSRF token.
protocol CSRFProtected {
    var csrf: String { get }
}

struct CSRFOnlyForm: Decodable, CSRFProtected {
    var csrf: String
}
