import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `siwa authorize` run as the built binary against a `siwa serve` of its own (loopback, a port the
/// kernel chose, a fresh data directory), as a person types it.
@Suite("siwa authorize: a refusal is exit 1 with the server's reason", .timeLimit(.minutes(5)))
struct AuthorizeCommandTests {
    /// A loopback port free a moment ago (bound to port 0, then released).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test("a refusal after the Return URL is proven (name and e-mail by query) exits 1 with the reason; an answer exits 0")
    func refusal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-authorize-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try Self.freePort()
        let server = Process()
        server.executableURL = SiwaFixtures.siwaURL
        server.arguments = ["serve", "--port", "\(port)", "--data-dir", directory.path, "--log-level", "error"]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        // The banner is written once the socket listens: read until it ends (or the server exits).
        var banner = ""
        while !banner.contains("Stop the server with Ctrl-C.") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        try #require(banner.contains("Stop the server with Ctrl-C."), "siwa serve did not start: \(banner)")
        let common = [
            "authorize", "--data-dir", directory.path, "--apple-id", "maria.ruiz@example.com", "--client-id", "com.example.juice.web",
            "--redirect-uri", "http://127.0.0.1:\(port)/playground/callback",
        ]

        let refused = try SiwaFixtures.run(common + ["--scope", "name email", "--response-mode", "query"])
        #expect(refused.status == 1, "\(refused.standardOutput)")
        #expect(refused.standardError.contains("invalid_request"), "\(refused.standardError)")
        #expect(refused.standardError.contains("form_post"), "the server's reason: \(refused.standardError)")
        #expect(!refused.standardOutput.contains("results"))

        let answered = try SiwaFixtures.run(common)
        #expect(answered.status == 0, "\(answered.standardError)")
        #expect(answered.standardOutput.contains("\"code\""))
    }
}
