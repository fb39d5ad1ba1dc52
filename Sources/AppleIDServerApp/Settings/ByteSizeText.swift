import Foundation

/// A size as people write it in a setting: `1GB`, `500MB`, `64KB` or bytes (binary units: a MB is
/// 1,048,576 bytes), or `off`.
public enum ByteSizeText {
    public enum Size: Sendable, Hashable {
        case bytes(Int)
        case off
    }

    /// The size `text` says, or `nil` when it is no size.
    public static func size(_ text: String) -> Size? {
        let text = text.trimmingCharacters(in: .whitespaces).uppercased()
        if text == "OFF" { return .off }
        let units: [(String, Int)] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10), ("B", 1)]
        let (digits, factor) = units.first { text.hasSuffix($0.0) }.map { (text.dropLast($0.0.count), $0.1) } ?? (Substring(text), 1)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0 else { return nil }
        // Typed by a person: a product past Int's range is no size (and must not trap).
        let (bytes, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? nil : .bytes(bytes)
    }
}
