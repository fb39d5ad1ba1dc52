import Foundation

/// The `Date:` field of an Internet message (RFC 5322 §3.3 date-time), always in UTC.
public enum MessageDate {
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Thu, 03 Dec 2026 12:44:05 +0000`. Computed from the seconds since 1970 in the Gregorian calendar
    /// (what `DateFormatter` writes for `en_US_POSIX` in UTC, for any date after its switch from the
    /// Julian calendar in 1582), without a formatter: the relay writes one per message, and making a
    /// `DateFormatter` each time cost about 8% of its CPU.
    public static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (day, second) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let dayNumber = second < 0 ? day - 1 : day
        let secondOfDay = second < 0 ? second + 86_400 : second
        let (year, month, dayOfMonth) = civil(daysSince1970: dayNumber)
        let weekday = days[((dayNumber % 7) + 7) % 7]
        return "\(weekday), \(two(dayOfMonth)) \(months[month - 1]) \(four(year)) "
            + "\(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) +0000"
    }

    /// The year, month (1–12) and day (1–31) of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func four(_ value: Int) -> String { String(repeating: "0", count: max(0, 4 - String(value).count)) + "\(value)" }
}
