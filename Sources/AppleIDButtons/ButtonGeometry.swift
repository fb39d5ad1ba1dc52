/// Where the parts of a button go, in pixels. The proportions follow the Human Interface
/// Guidelines (spec §16): the title is 43 % of the height, at least 8 % of the width stays free
/// on the right, a logo-only button keeps a tenth of its height around the logo.
struct ButtonGeometry {
    let fontSize: Int
    let logoHeight: Double
    let logoWidth: Double
    let gap: Double
    /// Left-aligned: the logo's and the label's left edges (at least the margin, and the label
    /// after the logo). Centre-aligned buttons centre the two as a group instead.
    let logoX: Double
    let textStart: Double
    let rightMargin: Double

    /// The logo's height as a share of the button's height, per logo size.
    static func logoShare(_ size: ButtonSpec.LogoSize) -> Double {
        switch size {
        case .small: return 0.38
        case .medium: return 0.47
        case .large: return 0.57
        }
    }

    init(spec: ButtonSpec) {
        let scale = Double(spec.scale)
        let width = Double(spec.pixelWidth)
        let height = Double(spec.pixelHeight)
        fontSize = max(6, Int((0.43 * height).rounded()))
        logoHeight = height * Self.logoShare(spec.layout == .left ? spec.logoSize : .medium)
        logoWidth = logoHeight * AppleLogo.width / AppleLogo.height
        gap = 0.28 * Double(fontSize)
        rightMargin = (0.08 * width).rounded(.up)
        let leftMargin = spec.layout == .left ? (0.1 * height).rounded(.up) : rightMargin
        logoX = max(leftMargin, Double(spec.logoPosition) * scale)
        textStart = max(logoX + logoWidth + gap, Double(spec.labelPosition) * scale)
    }
}
