import Foundation
import Testing

/// Issue 25's numbers, kept: one compact-JWS reader, one place that names demo.json's file. A
/// second copy of either drifts from the first (the client-secret rules once did), so a new one
/// fails here and should call the existing one instead.
@Suite("One JWT reader, one demo.json reader")
struct OneOfEachTests {
    static let sources = ["Sources"]
    /// The reader all of Sources goes through (AppleIDProtocol's CompactJWS).
    static let jwsReaderFolder = "Sources/AppleIDProtocol/JOSE/"

    @Test("no source outside CompactJWS splits a token, secret or JWT into its segments")
    func oneJWTReader() throws {
        // `token.split(separator: ".")`, `jwt.components(separatedBy: ".")`, `secret.split(…UInt8(ascii: "."))`…
        let splitter = try Regex(
            #"(?i)(token|jwt|jws|secret|compact|payload)\w*\s*\.\s*(split|components)\s*\((separator|separatedBy|whereSeparator)?[^)]*\.""#
        )
        let offenders = try StoreOwnershipTests.lines(in: Self.sources, matching: splitter).filter { !$0.hasPrefix(Self.jwsReaderFolder) }
        #expect(offenders.isEmpty, "read tokens with CompactJWS:\n\(offenders.joined(separator: "\n"))")
        // The scan would pass vacuously if the reader moved: it must find the reader's own split.
        let own = try StoreOwnershipTests.lines(in: [Self.jwsReaderFolder], matching: try Regex(#"UInt8\(ascii: "\.""#))
        #expect(!own.isEmpty, "CompactJWS no longer splits where this test looks")
    }

    @Test("demo.json's file name is spelt once, by DemoFacts; everything else reads it through DemoFacts")
    func oneDemoFileReader() throws {
        let literal = try Regex(#""demo\.json""#)
        let places = try StoreOwnershipTests.lines(in: Self.sources, matching: literal)
        #expect(places.count == 1 && places.first?.hasPrefix("Sources/AppleIDProtocol/Demo/") == true, "\(places)")
    }
}
