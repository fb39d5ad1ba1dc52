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
        guard !context.browserTokenIsNew, form.csrf == context.csrfToken else { throw UserFacingError.formExpired }
        return form
    }

    /// A page to return to: local paths only, so `next` cannot send anyone to another site.
    static func localPath(_ next: String?, default fallback: String = "/account") -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"), next.count < 512 else { return fallback }
        return next
    }
}

/// A form that carries the browser's CSRF token.
protocol CSRFProtected {
    var csrf: String { get }
}

struct CSRFOnlyForm: Decodable, CSRFProtected {
    var csrf: String
}
