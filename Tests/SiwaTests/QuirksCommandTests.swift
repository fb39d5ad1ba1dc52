import ArgumentParser
import Testing

@testable import siwa

/// `siwa quirks --apple-as-of` checks the day before it sends anything, and `today` clears it.
@Suite("siwa quirks: the client's Apple-as-of day")
struct QuirksCommandTests {
    @Test("a day that is not YYYY-MM-DD is refused before any request, naming the form", arguments: ["2024-02-30", "yesterday", "2024-1-1"])
    func refused(text: String) throws {
        #expect {
            _ = try Quirks.parse(["com.example.juice.web", "--apple-as-of", text])
        } throws: { error in
            Quirks.message(for: error).contains("--apple-as-of is a date YYYY-MM-DD, such as 2024-01-01, or today")
        }
    }

    @Test("a real day and today parse", arguments: ["2024-02-29", "today"])
    func accepted(text: String) throws {
        #expect(try Quirks.parse(["com.example.juice.web", "--apple-as-of", text]).appleAsOf == text)
    }
}
