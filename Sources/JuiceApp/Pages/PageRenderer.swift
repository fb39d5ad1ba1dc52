import Foundation
import Hummingbird
import Mustache

/// Renders the Mustache templates in `Templates/` (HTML-escaped) into HTML responses.
struct PageRenderer: Sendable {
    let library: MustacheLibrary
    /// `Scripts/sign-in.js`: the sign-in page's handling of Sign in with Apple JS's events.
    let signInScript: String

    static func load() async throws -> PageRenderer {
        guard let directory = Bundle.module.url(forResource: "Templates", withExtension: nil) else {
            throw JuiceError.templateMissing("Templates")
        }
        guard let script = Bundle.module.url(forResource: "Scripts/sign-in", withExtension: "js") else {
            throw JuiceError.templateMissing("Scripts/sign-in.js")
        }
        return PageRenderer(
            library: try await MustacheLibrary(directory: directory.path), signInScript: try String(contentsOf: script, encoding: .utf8))
    }

    /// The sign-in page's script, cacheable for a few minutes (a new build may change it).
    func signInScriptResponse() -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/javascript; charset=utf-8", .cacheControl: "public, max-age=300", .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(string: signInScript)))
    }

    /// - Parameter scriptSources: The origins a page may load scripts from (besides none): only the
    ///   sign-in page has any, Juice's own and the one Sign in with Apple JS comes from.
    func render(_ template: String, _ values: [String: Any], status: HTTPResponse.Status = .ok, scriptSources: [String] = []) throws -> Response {
        guard let html = library.render(values, withTemplate: template) else { throw JuiceError.templateMissing(template) }
        let scripts = scriptSources.isEmpty ? "'none'" : scriptSources.joined(separator: " ")
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy:
                    "default-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; script-src \(scripts); frame-ancestors 'none'",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
