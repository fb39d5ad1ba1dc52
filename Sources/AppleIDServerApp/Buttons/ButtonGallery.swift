import AppleIDButtons

/// The gallery page's model: for each locale, every mode, colour and title as our PNG, each
/// beside the button our JS library draws from the same settings.
struct ButtonGallery {
    struct Row {
        let locale: String
        let rightToLeft: Bool
        let cells: [Cell]
    }

    struct Cell {
        let caption: String
        let imageURL: String
        let width: Int
        let height: Int
        let mode: String
        let type: String
        let color: String
        let border: Bool
        /// What `imageURL` asks for, which start-up renders ahead (``ButtonImages/prerenderGallery()``).
        let spec: ButtonSpec
    }

    let title = "Sign in with Apple buttons"
    let rows: [Row]
    let scriptNonce: String

    static let width = 210
    static let height = 40

    init(locales: [ButtonLocale], scriptNonce: String) {
        self.scriptNonce = scriptNonce
        rows = locales.map { locale in
            var cells: [Cell] = []
            for layout in ButtonSpec.Layout.allCases {
                for color in ButtonSpec.Color.allCases {
                    for title in layout == .logo ? [.signIn] : ButtonSpec.Title.allCases {
                        cells.append(Self.cell(layout: layout, color: color, title: title, locale: locale))
                    }
                }
            }
            return Row(locale: locale.rawValue, rightToLeft: locale.isRightToLeft, cells: cells)
        }
    }

    /// Every image the gallery shows for `locales`, once each (the logo is the same in every locale).
    static func specs(locales: [ButtonLocale]) -> [ButtonSpec] {
        var seen = Set<ButtonSpec>()
        return ButtonGallery(locales: locales, scriptNonce: "").rows.flatMap(\.cells).map(\.spec).filter { seen.insert($0).inserted }
    }

    /// White buttons carry the outline (the "white outline" style of spec §16).
    private static func cell(layout: ButtonSpec.Layout, color: ButtonSpec.Color, title: ButtonSpec.Title, locale: ButtonLocale) -> Cell {
        let border = color == .white
        let common = "color=\(color.rawValue)&border=\(border)&border_radius=15&scale=2"
        var spec = ButtonSpec(
            layout: layout, width: width, height: height, color: color, border: border, title: title, borderRadius: 15, scale: 2, locale: locale)
        switch layout {
        case .center:
            return Cell(
                caption: "center · \(color.rawValue) · \(title.rawValue)",
                imageURL: "/appleid/button?width=\(width)&height=\(height)&type=\(title.rawValue)&locale=\(locale.rawValue)&\(common)",
                width: width, height: height, mode: "center-align", type: title.rawValue, color: color.rawValue, border: border, spec: spec)
        case .left:
            return Cell(
                caption: "left · \(color.rawValue) · \(title.rawValue)",
                imageURL:
                    "/appleid/button/left?width=\(width)&height=\(height)&type=\(title.rawValue)&locale=\(locale.rawValue)&logo-size=medium&\(common)",
                width: width, height: height, mode: "left-align", type: title.rawValue, color: color.rawValue, border: border, spec: spec)
        case .logo:
            (spec.width, spec.title, spec.locale) = (height, .signIn, .enUS)
            return Cell(
                caption: "logo · \(color.rawValue)", imageURL: "/appleid/button/logo?size=\(height)&\(common)",
                width: height, height: height, mode: "logo-only", type: title.rawValue, color: color.rawValue, border: border, spec: spec)
        }
    }
}
