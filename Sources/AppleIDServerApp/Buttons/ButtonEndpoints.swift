import AppleIDButtons
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird

/// Apple's button image endpoints (spec §14): `GET /appleid/button` (centre-aligned), `/left`
/// and `/logo`, answering a PNG of `width×scale` by `height×scale` pixels, or 404 with a JSON body
/// for an invalid parameter (503 with `Retry-After` while the renderers are saturated); and `/appleid/button/gallery`, every variant beside the JS button.
struct ButtonEndpoints {
    let images: ButtonImages
    let pages: PageRenderer
    let random: any RandomSource

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/appleid/button") { request, _ in try await image(request, layout: .center) }
        router.get("/appleid/button/left") { request, _ in try await image(request, layout: .left) }
        router.get("/appleid/button/logo") { request, _ in try await image(request, layout: .logo) }
        router.get("/appleid/button/gallery") { request, _ in
            let locales = request.uri.queryParameters.get("locale").flatMap(ButtonLocale.init(rawValue:)).map { [$0] } ?? ButtonLocale.all
            let nonce = random.hex(bytes: 16)
            return try pages.render(ButtonGallery(locales: locales, scriptNonce: nonce), template: "button_gallery", scriptNonce: nonce)
        }
    }

    private func image(_ request: Request, layout: ButtonSpec.Layout) async throws -> Response {
        let spec: ButtonSpec
        do throws(ButtonQuery.Invalid) {
            spec = try ButtonQuery(request).spec(for: layout)
        } catch {
            let body = try JSONEncoder().encode(error)
            return Response(
                status: .notFound, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        if let package = await images.missingFontPackage(for: spec) { return Self.fontMissing(package) }
        let png: [UInt8]
        do {
            png = try await images.png(spec)
        } catch is ButtonRenderQueue.Busy {
            // Every renderer is busy and the waiting room is full: come back in a second.
            return Response(
                status: .serviceUnavailable,
                headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store", .retryAfter: "1"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"error":"busy","reason":"the button renderer is busy; retry in a second"}"#)))
        }
        return EntityTag.respond(to: request, body: png, contentType: "image/png", maxAge: 86_400)
    }

    /// A title without its font would be boxes: never served as an image, never cached, and the
    /// operator is told what to install.
    static func fontMissing(_ package: String) -> Response {
        Response(
            status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(
                byteBuffer: ByteBuffer(
                    string: "This button's title needs the font package \(package), which is not installed on this server "
                        + "(apt-get install \(package), then restart it).\n")))
    }
}
