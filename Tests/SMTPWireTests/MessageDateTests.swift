import Foundation
import SMTPWire
import Testing

@Suite("The Date field (RFC 5322 §3.3), written without a formatter")
struct MessageDateTests {
    /// What `DateFormatter` writes for `en_US_POSIX` in UTC: the answer the computation must give.
    static func formatted(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    @Test(
        "dates around leap days, year and century ends, the epoch, before it, and fractions of a second read as DateFormatter writes them",
        arguments: [
            0, -1, 59.999, 86_399, 86_400, 951_782_400, 951_868_799, 951_868_800, 1_709_164_800, 1_709_251_199, 4_107_542_400, 4_102_444_799,
            1_796_300_645, 253_402_300_799, -2_208_988_800, -11_676_096_000,
        ] as [TimeInterval])
    func agreesWithDateFormatter(seconds: TimeInterval) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(MessageDate.format(date) == Self.formatted(date))
    }

    @Test(
        "every 13th day from 1600 to 2970, at a second chosen from the day, agrees (DateFormatter turns Julian before 1582; mail is not dated then)")
    func everyDay() {
        var disagreements: [String] = []
        for day in stride(from: -135_000, to: 365_000, by: 13) {
            let date = Date(
                timeIntervalSince1970: TimeInterval(day) * 86_400
                    + TimeInterval((day &* 7_919) % 86_400 + 86_400).truncatingRemainder(dividingBy: 86_400))
            if MessageDate.format(date) != Self.formatted(date) { disagreements.append(Self.formatted(date)) }
            if disagreements.count > 5 { break }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }
}
