import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

@Suite("Apple as of a date: the timeline's table, its days and the stored quirks")
struct AppleDatedChangeTests {
    @Test("every entry has a real day, a change, both behaviours and a source; the table is oldest first")
    func entriesHaveSources() {
        let table = AppleDatedChange.timeline
        #expect(table.count >= 3)
        for entry in table {
            #expect(AppleDate(entry.date.description) == entry.date, "\(entry.date) is a real day")
            #expect(!entry.change.isEmpty && !entry.before.isEmpty && !entry.after.isEmpty)
            #expect(!entry.sources.isEmpty, "\(entry.change) has a source")
            #expect(entry.sources.allSatisfy { $0.hasPrefix("https://") || $0.hasPrefix("shared/spec/") })
        }
        #expect(table.map(\.date) == table.map(\.date).sorted())
        #expect(table.map(\.date.description) == ["2024-02-07", "2025-06-11", "2026-01-01", "2026-06-16"])
    }

    @Test("an entry is in effect from its day on, and without a day (today)")
    func inEffect() throws {
        let change = AppleDatedChange.booleanClaims
        #expect(!change.isInEffect(asOf: try #require(AppleDate("2024-02-06"))))
        #expect(change.isInEffect(asOf: try #require(AppleDate("2024-02-07"))))
        #expect(change.isInEffect(asOf: nil))
    }

    @Test(
        "a day is YYYY-MM-DD of a real calendar day",
        arguments: ["2024-13-01", "2023-02-29", "2024-04-31", "24-01-01", "2024-1-1", "", "2024-01-01T00:00"])
    func badDays(text: String) {
        #expect(AppleDate(text) == nil)
    }

    @Test("leap days and ordering")
    func goodDays() throws {
        #expect(AppleDate("2024-02-29")?.description == "2024-02-29")
        #expect(try #require(AppleDate("2023-12-31")) < #require(AppleDate("2024-01-01")))
    }

    @Test("quirks stored before apple_as_of: a written `boolean` follows the day, `string` stays a switch")
    func legacyQuirks() throws {
        let decoder = JSONDecoder()
        let unset = try decoder.decode(ClientQuirks.self, from: Data(#"{"booleanStyle":"boolean","idTokenLifetime":600}"#.utf8))
        #expect(unset.booleanStyle == nil && unset.idTokenLifetime == 600)
        #expect(unset.resolvedBooleanStyle(serverAsOf: AppleDate("2024-01-01")) == .string)
        let strings = try decoder.decode(ClientQuirks.self, from: Data(#"{"booleanStyle":"string"}"#.utf8))
        #expect(strings.resolvedBooleanStyle(serverAsOf: nil) == .string)
        let now = ClientQuirks(booleanStyle: .boolean, appleAsOf: AppleDate("2024-01-01"))
        #expect(try decoder.decode(ClientQuirks.self, from: try JSONEncoder().encode(now)) == now)
        #expect(now.resolvedBooleanStyle(serverAsOf: nil) == .boolean)
    }
}
