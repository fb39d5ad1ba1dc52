import AppleIDProtocol
import Foundation
import Testing

@Suite("demo.json: one type, written and read")
struct DemoFactsTests {
    static let facts: DemoFacts = {
        var facts = DemoFacts(
            server: "http://127.0.0.1:8080", issuer: "http://127.0.0.1:8080", teamID: "TEAM123456", keyID: "KEY1234567",
            keyFile: ".siwa/AuthKey_KEY1234567.p8", bundleID: "com.example.juice", servicesID: "com.example.juice.web",
            returnURLs: ["http://127.0.0.1:8080/playground/callback"],
            users: [
                DemoFacts.User(
                    appleID: "ada@example.com", password: "pw", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com",
                    realUserStatus: 2, totpSecret: "JBSWY3DPEHPK3PXP")
            ],
            adminToken: "admin-token")
        facts.developer = .init(email: "dev@example.com", password: "dev-pw")
        return facts
    }()

    @Test("the file contents read back as the same facts, with the wire's snake_case names")
    func roundTrip() throws {
        let contents = try Self.facts.fileContents()
        #expect(try JSONDecoder().decode(DemoFacts.self, from: contents) == Self.facts)
        let text = String(decoding: contents, as: UTF8.self)
        for name in ["\"team_id\"", "\"key_file\"", "\"services_id\"", "\"admin_token\"", "\"return_urls\"", "\"apple_id\"", "\"totp_secret\""] {
            #expect(text.contains(name), "\(name) in \(text)")
        }
        #expect(text.contains("http://127.0.0.1:8080"), "slashes are not escaped")
    }

    @Test("read(fromDataDirectory:) finds demo.json in the folder, and nil where there is none")
    func readFromFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demo-facts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try DemoFacts.read(fromDataDirectory: folder) == nil)
        try Self.facts.fileContents().write(to: DemoFacts.fileURL(inDataDirectory: folder))
        #expect(try DemoFacts.read(fromDataDirectory: folder) == Self.facts)
    }

    @Test("a demo.json written before the console developer existed still reads")
    func olderFile() throws {
        var older = Self.facts
        older.developer = nil
        let contents = try older.fileContents()
        #expect(!String(decoding: contents, as: UTF8.self).contains("developer"))
        #expect(try JSONDecoder().decode(DemoFacts.self, from: contents) == older)
    }
}
