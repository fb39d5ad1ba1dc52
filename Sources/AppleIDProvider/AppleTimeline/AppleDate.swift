/// A calendar day, `YYYY-MM-DD`: the date `siwa serve --apple-as-of` and the `apple_as_of` quirk
/// name, on which the server speaks as Apple did (``AppleDatedChange``).
public struct AppleDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// What a refusal of a date that does not parse says it expected.
    public static let expected = "a date YYYY-MM-DD, such as 2024-01-01"

    /// A day of the Gregorian calendar written `YYYY-MM-DD`; `nil` for any other text or a day that
    /// does not exist (`2024-02-30`).
    public init?(_ text: String) {
        guard let match = text.wholeMatch(of: #/(\d{4})-(\d{2})-(\d{2})/#),
            let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
            (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// A day given as numbers (the table's own days); not checked, unlike the text form.
    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    private static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public var description: String {
        func padded(_ number: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - "\(number)".count)) + "\(number)" }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    public static func < (lhs: AppleDate, rhs: AppleDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Stored as its text, `"2024-01-01"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = AppleDate(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not \(Self.expected)")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
