import AppleIDButtons
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AppleIDServer
@testable import AppleIDServerApp

@Suite("Button images (spec §14)")
struct ButtonImageTests {
    static func png(_ response: TestResponse) throws -> Canvas {
        try #require(PNGCodec.decode(Array(response.body.readableBytesView)))
    }

    @Test(
        "each endpoint answers a PNG of width×scale by height×scale (size×scale for the logo)",
        arguments: [
            ("/appleid/button", 140, 30), ("/appleid/button?width=375&height=64&scale=2", 750, 128),
            ("/appleid/button/left?width=200&height=44&scale=3&logo-size=large&label-position=60", 600, 132),
            ("/appleid/button/logo", 30, 30), ("/appleid/button/logo?size=64&scale=6", 384, 384),
        ])
    func sizes(uri: String, width: Int, height: Int) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/png")
            let image = try Self.png(response)
            #expect(image.width == width && image.height == height)
        }
    }

    @Test(
        "an invalid parameter gets 404 with a JSON body naming it",
        arguments: [
            ("/appleid/button?width=129", "width"), ("/appleid/button?width=376", "width"), ("/appleid/button?width=wide", "width"),
            ("/appleid/button?height=29", "height"), ("/appleid/button?height=65", "height"), ("/appleid/button?color=red", "color"),
            ("/appleid/button?border=yes", "border"), ("/appleid/button?type=signin", "type"),
            ("/appleid/button?border_radius=51", "border_radius"), ("/appleid/button?border_radius=-1", "border_radius"),
            ("/appleid/button?scale=0", "scale"), ("/appleid/button?scale=7", "scale"), ("/appleid/button?locale=en_XX", "locale"),
            ("/appleid/button?width=140&width=150", "width"), ("/appleid/button/left?label-position=183&width=375", "label-position"),
            ("/appleid/button/left?width=200&label-position=101", "label-position"),
            ("/appleid/button/left?logo-position=-1", "logo-position"), ("/appleid/button/left?logo-size=huge", "logo-size"),
            ("/appleid/button/logo?size=29", "size"), ("/appleid/button/logo?size=65", "size"),
            ("/appleid/button/logo?border_radius=99", "border_radius"),
        ])
    func invalid(uri: String, parameter: String) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: String])
            #expect(body["parameter"] == parameter)
            #expect(body["reason"]?.isEmpty == false)
        }
    }

    @Test("images carry an ETag and Cache-Control, and a matching If-None-Match gets 304")
    func caching() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let first = try await client.execute(uri: "/appleid/button?locale=de_DE", method: .get)
            let tag = try #require(first.headers[.eTag])
            #expect(first.headers[.cacheControl]?.contains("max-age") == true)
            let again = try await client.execute(uri: "/appleid/button?locale=de_DE", method: .get)
            #expect(again.body == first.body)
            let revalidated = try await client.execute(uri: "/appleid/button?locale=de_DE", method: .get, headers: [.ifNoneMatch: tag])
            #expect(revalidated.status == .notModified)
            #expect(revalidated.body.readableBytes == 0)
        }
    }

    @Test("the locale changes the title; white buttons are white, black ones black")
    func localesAndColours() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            var bodies: Set<ByteBuffer> = []
            for locale in ["en_US", "ar_SA", "iw_IL", "th_TH", "ja_JP"] {
                bodies.insert(try await client.execute(uri: "/appleid/button?width=200&locale=\(locale)", method: .get).body)
            }
            #expect(bodies.count == 5)
            let white = try Self.png(try await client.execute(uri: "/appleid/button?color=white", method: .get))
            let black = try Self.png(try await client.execute(uri: "/appleid/button?color=black", method: .get))
            #expect(white[4, 15].red == 255 && black[4, 15].red == 0)
        }
    }

    @Test("the gallery shows every mode, colour and title, with the JS library beside each image")
    func gallery() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let page = try await client.execute(uri: "/appleid/button/gallery", method: .get)
            #expect(page.status == .ok)
            let html = page.text
            #expect(html.components(separatedBy: "data-gallery-locale=").count - 1 == 37)
            #expect(html.components(separatedBy: "<img ").count - 1 == 37 * 14)
            #expect(html.components(separatedBy: "class=\"js-button\"").count - 1 == 37 * 14)
            #expect(html.contains("/appleid/button/left?") && html.contains("/appleid/button/logo?"))
            let nonce = try #require(html.firstMatch(of: #/<script nonce="([0-9a-f]+)">/#)?.1)
            #expect(page.headers[.contentSecurityPolicy]?.contains("'nonce-\(nonce)'") == true)
            let one = try await client.execute(uri: "/appleid/button/gallery?locale=th_TH", method: .get)
            #expect(one.text.components(separatedBy: "data-gallery-locale=").count - 1 == 1)
        }
    }
}

@Suite("Rendered button cache")
struct ButtonImageCacheTests {
    actor Counter {
        var renders = 0
        func count() { renders += 1 }
    }

    @Test("a cached image is not rendered again, and the least recently used one leaves at the bound")
    func bounded() async throws {
        let cache = ButtonImageCache(maximumCount: 2)
        let counter = Counter()
        let render: @Sendable (ButtonSpec) async throws -> [UInt8] = { spec in
            await counter.count()
            return [UInt8(spec.width % 256)]
        }
        let a = ButtonSpec(width: 140)
        let b = ButtonSpec(width: 150)
        let c = ButtonSpec(width: 160)
        _ = try await cache.image(a, render: render)
        _ = try await cache.image(b, render: render)
        _ = try await cache.image(a, render: render)
        #expect(await counter.renders == 2)
        _ = try await cache.image(c, render: render)
        #expect(await cache.count == 2)
        _ = try await cache.image(a, render: render)
        #expect(await counter.renders == 3)
        _ = try await cache.image(b, render: render)
        #expect(await counter.renders == 4)
    }
}
