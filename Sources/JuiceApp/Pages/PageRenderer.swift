import Foundation
import Hummingbird
import Mustache

/// Renders the Mustache templates in `Templates/` (HTML-escaped) into HTML responses.
struct PageRenderer: Sendable {
    let library: MustacheLibrary

    static func load() async throws -> PageRenderer {
        guard let directory = Bundle.module.url(forResource: "Templates", withExtension: nil) else {
            throw JuiceError.templateMissing("Templates")
        }
        return PageRenderer(library: try await MustacheLibrary(directory: directory.path))
    }

    func render(_ template: String, _ values: [String: Any], status: HTTPResponse.Status = .ok) throws -> Response {
        guard let html = library.render(values, withTemplate: template) else { throw JuiceError.templateMissing(template) }
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy:
                    "default-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; script-src 'none'; frame-ancestors 'none'",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
