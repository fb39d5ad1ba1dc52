import AppleIDButtonSpec
import Foundation
import Hummingbird

/// `GET /appleauth/static/jsapi/appleid/1/{locale}/appleid.auth.js`: our Sign in with Apple JS
/// (spec §13), at Apple's path, one per button locale (spec §14.2). The script file in `Scripts/`
/// is completed with the locale's titles and the logo path the images use, so the DOM button and
/// the PNG button say and draw the same thing.
struct SignInScriptEndpoint {
    /// The script version sent as `v` (spec §13.1: 1.5.6 is the newest seen on the wire).
    static let version = "1.5.6"

    let scripts: [String: [UInt8]]

    init(serverURL: String) throws {
        guard let url = Bundle.module.url(forResource: "appleid.auth", withExtension: "js", subdirectory: "Scripts") else {
            throw ScriptError.scriptMissing
        }
        let template = try String(contentsOf: url, encoding: .utf8)
        var scripts: [String: [UInt8]] = [:]
        for locale in ButtonLocale.all {
            let settings = Settings(locale: locale, serverURL: serverURL)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let json = AuthorizationDelivery.scriptSafe(String(decoding: try encoder.encode(settings), as: UTF8.self))
            scripts[locale.rawValue] = Array(template.replacingOccurrences(of: "/* SETTINGS */", with: json).utf8)
        }
        self.scripts = scripts
    }

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/appleauth/static/jsapi/appleid/1/:locale/appleid.auth.js") { request, context in
            guard let script = scripts[context.parameters.get("locale") ?? ""] else {
                return Response(
                    status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: "Unknown locale\n")))
            }
            return EntityTag.respond(to: request, body: script, contentType: "text/javascript; charset=utf-8", maxAge: 3600)
        }
    }

    /// What the script needs from the server.
    struct Settings: Encodable {
        struct Logo: Encodable {
            let path = AppleLogo.svgPath
            let width = AppleLogo.width
            let height = AppleLogo.height
        }

        let locale: String
        let rightToLeft: Bool
        let version = SignInScriptEndpoint.version
        let serverURL: String
        let titles: [String: String]
        let logo = Logo()

        init(locale: ButtonLocale, serverURL: String) {
            self.locale = locale.rawValue
            rightToLeft = locale.isRightToLeft
            self.serverURL = serverURL
            titles = Dictionary(uniqueKeysWithValues: ButtonSpec.Title.allCases.map { ($0.rawValue, locale.text($0)) })
        }
    }

    enum ScriptError: Error {
        case scriptMissing
    }
}
