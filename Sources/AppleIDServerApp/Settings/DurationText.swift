/// Durations as people type them in options, environment variables and files: `300`, `30s`, `10m`,
/// `24h`, `30d`.
public enum DurationText {
    /// The seconds `text` says, or `nil` when it is no duration.
    public static func seconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = text.last, let factor = units[unit], let value = Int(text.dropLast()) else { return Int(text) }
        // Typed by a person: a product past Int's range is no duration (and must not trap).
        let (seconds, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? nil : seconds
    }
}
