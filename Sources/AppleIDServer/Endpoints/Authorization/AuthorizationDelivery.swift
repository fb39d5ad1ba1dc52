import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Sends an authorization answer back by its response mode (spec §3.3): a redirect with the
/// parameters in the query or fragment, an auto-submitting form POST, or a `postMessage` page.
struct AuthorizationDelivery {
    let pages: PageRenderer
    let random: any RandomSource

    func deliver(_ answer: AuthorizationResponse) throws -> Response {
        switch answer.responseMode {
        case .formPost: return try formPost(answer)
        case .webMessage: return try webMessage(answer)
        case .fragment: return redirect(to: Self.url(answer.redirectURI, adding: try answer.wireParameters(), inFragment: true))
        default: return redirect(to: Self.url(answer.redirectURI, adding: try answer.wireParameters(), inFragment: false))
        }
    }

    /// The redirect URI with the parameters appended, each percent-encoded; what the registered
    /// URL already carries is kept as it is.
    static func url(_ redirectURI: String, adding parameters: [(name: String, value: String)], inFragment: Bool) -> String {
        let encoded = FormURLEncoding.join(parameters.map { ($0.name, $0.value) })
        guard var components = URLComponents(string: redirectURI) else { return redirectURI }
        if inFragment {
            components.percentEncodedFragment = encoded
        } else {
            let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
            components.percentEncodedQuery = existing + encoded
        }
        return components.string ?? redirectURI
    }

    private func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }

    private struct FormPostPage {
        let action: String
        let fields: [Field]
        let scriptNonce: String
        struct Field {
            let name: String
            let value: String
        }
    }

    private func formPost(_ answer: AuthorizationResponse) throws -> Response {
        let nonce = random.hex(bytes: 16)
        let page = FormPostPage(
            action: answer.redirectURI, fields: try answer.wireParameters().map { .init(name: $0.name, value: $0.value) }, scriptNonce: nonce)
        return try pages.render(page, template: "form_post", scriptNonce: nonce, allowFormTarget: answer.redirectURI)
    }

    /// Apple JS popups: `{"method":"oauthDone","data":{…}}` as a JSON string, posted to the opener
    /// at the redirect URI's origin only.
    private func webMessage(_ answer: AuthorizationResponse) throws -> Response {
        let message = WebMessage(answer)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let json = String(decoding: try encoder.encode(String(decoding: try encoder.encode(message), as: UTF8.self)), as: UTF8.self)
        let origin =
            URLComponents(string: answer.redirectURI).map { components -> String in
                var origin = URLComponents()
                origin.scheme = components.scheme
                origin.host = components.host
                origin.port = components.port
                return origin.string ?? "null"
            } ?? "null"
        let nonce = random.hex(bytes: 16)
        struct Page {
            let messageJSON: String
            let targetOriginJSON: String
            let scriptNonce: String
        }
        let originJSON = String(decoding: try encoder.encode(origin), as: UTF8.self)
        return try pages.render(
            Page(messageJSON: Self.scriptSafe(json), targetOriginJSON: Self.scriptSafe(originJSON), scriptNonce: nonce),
            template: "web_message", scriptNonce: nonce, allowFormTarget: nil)
    }

    /// JSON embedded in a `<script>` must not be able to close it.
    static func scriptSafe(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }
}

/// Apple JS's `oauthDone` message (spec §13.3), with the request's `frame_id` beside `data` so the
/// script accepts only its own popup's answer.
private struct WebMessage: Encodable {
    struct Authorization: Encodable {
        var code: String?
        var idToken: String?
        var state: String?
        enum CodingKeys: String, CodingKey {
            case code
            case idToken = "id_token"
            case state
        }
    }

    struct Data: Encodable {
        var authorization: Authorization?
        var user: AuthorizedUser?
        var error: String?
    }

    let method = "oauthDone"
    let frameID: String?
    let data: Data

    enum CodingKeys: String, CodingKey {
        case method
        case frameID = "frame_id"
        case data
    }

    init(_ answer: AuthorizationResponse) {
        frameID = answer.frameID
        switch answer.outcome {
        case .authorized(let issued):
            data = Data(
                authorization: Authorization(code: issued.code, idToken: issued.idToken, state: answer.state), user: issued.user, error: nil)
        case .refused(let error):
            data = Data(authorization: nil, user: nil, error: error.code.rawValue)
        }
    }
}
