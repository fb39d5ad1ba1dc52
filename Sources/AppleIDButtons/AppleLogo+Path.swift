extension AppleLogo {
    /// The logo's outline for the renderer (the spec module keeps the SVG text, which the JS library shares).
    static let path = VectorPath(svg: svgPath)
}
