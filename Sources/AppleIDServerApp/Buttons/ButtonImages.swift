import AppleIDButtons
import Foundation
import Logging
import ServiceLifecycle

/// Button PNGs: the cache in front of the bounded render queue.
struct ButtonImages: Sendable {
    let cache: ButtonImageCache
    let queue: ButtonRenderQueue
    /// Knows which font packages this machine lacks (`nil`: a test's renderers, which need none).
    var fonts: ButtonRenderer? = nil

    /// One renderer per core and four waiting requests per renderer, with the fonts of `fontFiles`.
    static func standard(logger: Logger, fontFiles: ButtonFontFiles = .installed) throws -> ButtonImages {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let renderers = try (0..<cores).map { _ in try ButtonRenderer(logger: logger, fontFiles: fontFiles) }
        return ButtonImages(
            cache: ButtonImageCache(), queue: ButtonRenderQueue(renderers: renderers, waitingLimit: 4 * cores), fonts: renderers.first)
    }

    /// The font package `spec`'s title needs and this machine lacks: such a button is never drawn as boxes.
    func missingFontPackage(for spec: ButtonSpec) async -> String? {
        await fonts?.missingFontPackage(for: spec)
    }

    /// The cached PNG, or a new one from the queue (``ButtonRenderQueue/Busy`` when it is full).
    func png(_ spec: ButtonSpec) async throws -> [UInt8] {
        let queue = self.queue
        return try await cache.image(spec) { try await queue.png($0) }
    }

    /// Renders the gallery's images into the cache one at a time, so that live requests keep the
    /// other renderers; an image the queue has no room for is left to be rendered when asked for.
    func prerenderGallery() async {
        for spec in ButtonGallery.specs(locales: ButtonLocale.all) {
            guard !Task.isCancelled else { return }
            _ = try? await png(spec)
        }
    }
}

/// Pre-renders the gallery's images after start-up, in the background: the server answers at once
/// and the gallery (and the buttons pages most ask for) is a cache hit by the time anyone opens it.
struct ButtonGalleryPrerenderer: Service {
    let images: ButtonImages

    func run() async throws {
        let images = self.images
        await cancelWhenGracefulShutdown { await images.prerenderGallery() }
        // A service that returns would stop the server: stay until shutdown.
        try? await gracefulShutdown()
    }
}
