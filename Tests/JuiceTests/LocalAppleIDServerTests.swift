import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Crypto
import Foundation
import JuiceApp
import Testing

@testable import AppleIDServerApp

@Suite("Juice reads the demo.json that siwa serve writes")
struct LocalAppleIDServerTests {
    @Test("the file the server's start-up writes is read by Juice's type into the same facts and configuration")
    func readsTheServersFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juice-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = DemoFiles(directory: folder)
        let keyID = KeyID(rawValue: "KEY1234567")
        let facts = DemoFacts(
            server: "http://127.0.0.1:8080", issuer: "https://appleid.apple.com", teamID: "TEAM123456", keyID: keyID,
            keyFile: files.keyURL(keyID).path, bundleID: "com.example.juice", servicesID: "com.example.juice.web",
            returnURLs: [DemoSeed.juiceReturnURL], users: [], adminToken: "admin-token")
        let pem = P256.Signing.PrivateKey().pemRepresentation
        try files.writeKeyOnce(pem, keyID: keyID)
        try files.save(facts)

        let local = try LocalAppleIDServer(dataDirectory: folder.path)
        #expect(local.facts == facts)
        #expect(local.privateKeyPEM == pem)
        let configuration = local.clientConfiguration(juiceBaseURL: "http://127.0.0.1:8081")
        #expect(configuration.primaryAppID == "com.example.juice")
        #expect(configuration.web?.servicesID == "com.example.juice.web")
        #expect(configuration.environment.issuers == ["https://appleid.apple.com"])
    }
}
