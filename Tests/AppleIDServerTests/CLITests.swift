import Foundation
import Testing

/// Issue 14: the `siwa` binary's messages name the real problem. These run the built binary.
@Suite("siwa command line: messages that name the problem", .timeLimit(.minutes(2)))
struct CLITests {
    /// `siwa` beside this test bundle (`swift build --build-tests` and `swift test` build both).
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("siwa")
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(
        "each mistake gets one line that names it, and exit 1",
        arguments: [
            (["users", "lst", "--data-dir", ".siwa"], "siwa users has no verb 'lst'. Did you mean 'list'?"),
            (["clock", "rest"], "siwa clock has no verb 'rest'. Did you mean 'reset'?"),
            (["users", "add", "not-an-email", "--password", "x"], "not-an-email is not an e-mail address"),
            (
                ["secret", "--team-id", "T", "--key-id", "K", "--key", "/nonexistent/AuthKey.p8", "--client-id", "c"],
                "cannot read the key file /nonexistent/AuthKey.p8: there is no such file"
            ),
            (
                [
                    "credential-state", "--user", "robin.unknown@example.com", "--client-id", "c", "--server", "http://127.0.0.1:9", "--admin-token",
                    "t",
                ],
                "robin.unknown@example.com is an Apple ID, not a user identifier (sub)"
            ),
            (
                ["users", "list", "--server", "http://127.0.0.1:9", "--admin-token", "t"],
                "cannot reach http://127.0.0.1:9: connection refused (is `siwa serve` running there?)"
            ),
            (["serve", "--port", "99999"], "--port 99999 is not a port: choose one from 1 to 65535"),
        ])
    func messages(_ testCase: ([String], String)) throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build siwa first: swift build --build-tests")
        let (status, output) = try Self.run(testCase.0)
        #expect(status == 1)
        #expect(output.contains(testCase.1), "\(output)")
        #expect(!output.contains("Usage:"), "a mistake is not a usage question")
        #expect(!output.contains(")) (errno"))
    }
}
