import Foundation
import Hummingbird
import Mustache

/// Renders the Mustache templates in `Templates/` (HTML-escaped by default) into HTML responses;
/// holds the pages' words in every locale (`Locales/`).
package struct PageRenderer: Sendable {
    let library: MustacheLibrary
    let strings: PageStrings

    package static func load() async throws -> PageRenderer {
        guard let directory = Bundle.module.url(forResource: "Templates", withExtension: nil) else {
            throw TemplateError.templatesMissing
        }
        return PageRenderer(library: try await MustacheLibrary(directory: directory.path), strings: try PageStrings.load())
    }

    /// - Parameters:
    ///   - scriptNonce: allows the page's one inline script (CSP nonce).
    ///   - allowFormTarget: the URL a form of this page may post to, besides this server.
    package func render(
        _ context: Any, template: String, status: HTTPResponse.Status = .ok, scriptNonce: String? = nil,
        allowFormTarget: String? = nil
    ) throws -> Response {
        guard let html = library.render(context, withTemplate: template) else { throw TemplateError.unknownTemplate(template) }
        var policy = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'"
        policy += scriptNonce.map { "; script-src 'nonce-\($0)'" } ?? "; script-src 'none'"
        policy += "; form-action 'self'" + (allowFormTarget.flatMap(Self.origin).map { " \($0)" } ?? "")
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .contentSecurityPolicy: policy],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private static func origin(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    enum TemplateError: Error {
        case templatesMissing
        case unknownTemplate(String)
    }
}
