import AppleIDButtons

/// Rendered button images kept in memory, least recently used first out, bounded by count and
/// by bytes: the parameter space is large (37 locales × sizes × scales), what pages ask for is not.
/// The default count holds the whole gallery (518 images), so reloading it does not re-render.
actor ButtonImageCache {
    let maximumCount: Int
    let maximumBytes: Int
    private var images: [ButtonSpec: [UInt8]] = [:]
    private var recency: [ButtonSpec] = []
    private var bytes = 0

    init(maximumCount: Int = 1024, maximumBytes: Int = 16 << 20) {
        self.maximumCount = maximumCount
        self.maximumBytes = maximumBytes
    }

    var count: Int { images.count }

    /// The cached PNG, or the one `render` makes (then kept).
    func image(_ spec: ButtonSpec, render: @Sendable (ButtonSpec) async throws -> [UInt8]) async throws -> [UInt8] {
        if let png = images[spec] {
            touch(spec)
            return png
        }
        let png = try await render(spec)
        guard images[spec] == nil else { return png }  // rendered meanwhile by another request
        images[spec] = png
        recency.append(spec)
        bytes += png.count
        while images.count > maximumCount || bytes > maximumBytes, !recency.isEmpty {
            let oldest = recency.removeFirst()
            bytes -= images.removeValue(forKey: oldest)?.count ?? 0
        }
        return png
    }

    private func touch(_ spec: ButtonSpec) {
        if let index = recency.firstIndex(of: spec) { recency.remove(at: index) }
        recency.append(spec)
    }
}
