/// One Sign in with Apple button image, in points (spec §14.1); the renderer multiplies by `scale`.
public struct ButtonSpec: Sendable, Hashable {
    /// Which of Apple's three image endpoints: `/appleid/button`, `/left` or `/logo`.
    public enum Layout: String, Sendable, Hashable, CaseIterable {
        case center, left, logo
    }

    public enum Color: String, Sendable, Hashable, CaseIterable {
        case black, white
    }

    /// The button's title (spec §16: only these three are allowed).
    public enum Title: String, Sendable, Hashable, CaseIterable {
        case signIn = "sign-in"
        case `continue`
        case signUp = "sign-up"
    }

    public enum LogoSize: String, Sendable, Hashable, CaseIterable {
        case small, medium, large
    }

    public var layout: Layout
    public var width: Int
    public var height: Int
    public var color: Color
    public var border: Bool
    public var title: Title
    /// Corner radius as a percentage of the height: 0 is square, 50 a capsule.
    public var borderRadius: Int
    public var scale: Int
    public var locale: ButtonLocale
    /// Left-aligned buttons only: where the label and the logo start, in points from the left edge.
    public var labelPosition: Int
    public var logoPosition: Int
    public var logoSize: LogoSize

    public init(
        layout: Layout = .center, width: Int = 140, height: Int = 30, color: Color = .black, border: Bool = false,
        title: Title = .signIn, borderRadius: Int = 15, scale: Int = 1, locale: ButtonLocale = .enUS,
        labelPosition: Int = 0, logoPosition: Int = 0, logoSize: LogoSize = .medium
    ) {
        self.layout = layout
        self.width = width
        self.height = height
        self.color = color
        self.border = border
        self.title = title
        self.borderRadius = borderRadius
        self.scale = scale
        self.locale = locale
        self.labelPosition = labelPosition
        self.logoPosition = logoPosition
        self.logoSize = logoSize
    }

    /// The image's size in pixels: a logo-only button is `height` points square.
    public var pixelWidth: Int { (layout == .logo ? height : width) * scale }
    public var pixelHeight: Int { height * scale }
}

/// The ranges Apple documents for the image parameters (spec §14.1).
public enum ButtonLimits {
    public static let height = 30...64
    public static let width = 130...375
    public static let borderRadius = 0...50
    public static let scale = 1...6
    public static let position = 0...182
}
