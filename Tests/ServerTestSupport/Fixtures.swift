import Foundation

/// Fixture keys checked in next to the test support: RSA-2048 signing keys and P-256 developer keys.
package enum Fixtures {
    package static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// The package's root folder (this file is `Tests/ServerTestSupport/Fixtures.swift`), for
    /// tests that read the README or the server's sources, wherever their own file sits.
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    package static func text(_ name: String) -> String {
        // Fixtures are part of the repository; a missing one is a broken checkout, not a test result.
        guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else {
            preconditionFailure("missing fixture \(name)")
        }
        return text
    }

    package static let signingKeys = (1...4).map { text("signing-key-\($0).pem") }
    package static let developerKey = text("AuthKey_TESTKEY123.p8")
    package static let otherDeveloperKey = text("other-team-key.p8")

    /// 2026-11-21T06:00:00Z, the fixed "now" of every test.
    package static let now = Date(timeIntervalSince1970: 1_795_240_800)
}
