import AppleIDButtons
import Hummingbird

/// Reads the query of Apple's button image endpoints into a `ButtonSpec`, with exactly the
/// parameters, defaults and ranges of spec §14.1 (hyphenated `label-position`, `logo-position`,
/// `logo-size`; underscored `border_radius`). Parameters an endpoint does not list are ignored, as
/// Apple's own `/logo` example passes left-aligned ones (spec §14.1).
struct ButtonQuery {
    /// A parameter with a value outside its range or vocabulary: answered with 404 (spec §14).
    struct Invalid: Error, Encodable {
        let error = "invalid_parameter"
        let parameter: String
        let reason: String
    }

    let parameters: [String: [String]]

    init(_ request: Request) {
        var parameters: [String: [String]] = [:]
        for (name, value) in request.uri.queryParameters { parameters[String(name), default: []].append(String(value)) }
        self.parameters = parameters
    }

    func spec(for layout: ButtonSpec.Layout) throws(Invalid) -> ButtonSpec {
        var spec = ButtonSpec(layout: layout)
        spec.color = try choice("color", default: .black)
        spec.border = try choice("border", default: false, from: ["true": true, "false": false])
        spec.borderRadius = try number("border_radius", default: 15, in: ButtonLimits.borderRadius)
        spec.scale = try number("scale", default: 1, in: ButtonLimits.scale)
        if layout == .logo {
            spec.height = try number("size", default: 30, in: ButtonLimits.height)
            spec.width = spec.height
            return spec
        }
        spec.height = try number("height", default: 30, in: ButtonLimits.height)
        spec.width = try number("width", default: 140, in: ButtonLimits.width)
        spec.title = try choice("type", default: .signIn)
        spec.locale = try choice("locale", default: .enUS, from: Dictionary(uniqueKeysWithValues: ButtonLocale.all.map { ($0.rawValue, $0) }))
        if layout == .left {
            // "≤ half the width" (spec §14.1), on top of the 0–182 range.
            let limit = ButtonLimits.position.lowerBound...min(ButtonLimits.position.upperBound, spec.width / 2)
            spec.labelPosition = try number("label-position", default: 0, in: limit)
            spec.logoPosition = try number("logo-position", default: 0, in: limit)
            spec.logoSize = try choice("logo-size", default: .medium)
        }
        return spec
    }

    private func value(_ name: String) throws(Invalid) -> String? {
        guard let values = parameters[name] else { return nil }
        guard values.count == 1 else { throw Invalid(parameter: name, reason: "\(name) is given more than once") }
        return values[0]
    }

    private func number(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws(Invalid) -> Int {
        guard let text = try value(name) else { return fallback }
        guard let number = Int32(text).map(Int.init), range.contains(number) else {
            throw Invalid(parameter: name, reason: "\(name) is a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    private func choice<Value: RawRepresentable & CaseIterable>(_ name: String, default fallback: Value) throws(Invalid) -> Value
    where Value.RawValue == String {
        try choice(name, default: fallback, from: Dictionary(uniqueKeysWithValues: Value.allCases.map { ($0.rawValue, $0) }))
    }

    private func choice<Value>(_ name: String, default fallback: Value, from values: [String: Value]) throws(Invalid) -> Value {
        guard let text = try value(name) else { return fallback }
        guard let chosen = values[text] else {
            throw Invalid(parameter: name, reason: "\(name) is one of: \(values.keys.sorted().joined(separator: ", "))")
        }
        return chosen
    }
}
