import Hummingbird

/// The request context of every route of the Apple ID server.
public struct AppleIDRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }

    /// Bodies of `/auth/*` forms are small; anything larger is refused before it is parsed.
    public var maxUploadSize: Int { 64 * 1024 }
}
