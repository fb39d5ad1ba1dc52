/// A claim that Apple writes either as a JSON boolean or as the string `"true"`/`"false"`
/// (`email_verified`, `is_private_email`; spec §9.3). Decodes both; encodes in its own style.
public struct BooleanClaim: Codable, Sendable, Hashable, CustomStringConvertible {
    public enum Style: String, Codable, Sendable, Hashable {
        /// JSON `true`/`false`: Apple's traffic since February 2024.
        case boolean
        /// The strings `"true"`/`"false"`: Apple's traffic until early 2024.
        case string
    }

    public var value: Bool
    public var style: Style

    public init(_ value: Bool, style: Style = .boolean) {
        self.value = value
        self.style = style
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bool = try? container.decode(Bool.self) {
            self.init(bool, style: .boolean)
            return
        }
        switch try container.decode(String.self) {
        case "true": self.init(true, style: .string)
        case "false": self.init(false, style: .string)
        case let other:
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a boolean or \"true\"/\"false\", found \"\(other)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch style {
        case .boolean: try container.encode(value)
        case .string: try container.encode(value ? "true" : "false")
        }
    }

    public var description: String { String(value) }
}
