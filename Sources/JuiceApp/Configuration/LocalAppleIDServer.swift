import AppleIDProtocol
import AsyncHTTPClient
import Foundation
import NIOCore
import SignInWithApple

/// The demo setup: a local `siwa serve` and the facts it wrote to `demo.json` (``DemoFacts``, the
/// type the server writes it with).
public struct LocalAppleIDServer: Sendable {
    public enum SetupError: Error, CustomStringConvertible {
        case demoFileMissing(String)
        case unreadable(String, String)
        case registrationFailed(String, Int)

        public var description: String {
            switch self {
            case .demoFileMissing(let path):
                "\(path) does not exist. Start the local Apple ID server first, in another terminal: swift run siwa serve"
            case .unreadable(let path, let reason): "\(path) could not be read: \(reason)"
            case .registrationFailed(let url, let status):
                "the local Apple ID server refused \(url) (HTTP \(status)); is it the server that wrote demo.json?"
            }
        }
    }

    public let facts: DemoFacts
    public let privateKeyPEM: String

    /// Reads `demo.json` (and the key it names, relative to the working directory or the folder).
    public init(dataDirectory: String) throws {
        let folder = URL(fileURLWithPath: dataDirectory)
        let path = DemoFacts.fileURL(inDataDirectory: folder).path
        let facts: DemoFacts?
        do {
            facts = try DemoFacts.read(fromDataDirectory: folder)
        } catch {
            throw SetupError.unreadable(path, "\(error)")
        }
        guard let facts else { throw SetupError.demoFileMissing(path) }
        self.facts = facts
        let candidates = [facts.keyFile, folder.appendingPathComponent(URL(fileURLWithPath: facts.keyFile).lastPathComponent).path]
        guard let keyPath = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw SetupError.unreadable(facts.keyFile, "the key file is missing")
        }
        privateKeyPEM = try String(contentsOfFile: keyPath, encoding: .utf8)
    }

    /// The kit's configuration: the Services ID as client, Juice's callback as redirect URI, the whole
    /// app group as audiences.
    public func clientConfiguration(juiceBaseURL: String) -> SignInWithAppleClient.Configuration {
        .init(
            environment: .custom(baseURL: facts.server, issuers: [facts.issuer]),
            credentials: AppleCredentials(teamID: facts.teamID.rawValue, keyID: facts.keyID.rawValue, privateKeyPEM: privateKeyPEM),
            primaryAppID: facts.bundleID.rawValue,
            web: .init(servicesID: facts.servicesID.rawValue, redirectURI: JuiceConfiguration.redirectURI(baseURL: juiceBaseURL)),
            // Only the scopes Juice uses: the name to greet, the e-mail for receipts.
            scopes: [.name, .email])
    }

    /// Registers Juice with the server's admin API: its callback as a return URL of the Services ID,
    /// and its notification endpoint for the app group. Both calls are idempotent.
    public func register(juiceBaseURL: String, client: HTTPClient = .shared) async throws {
        try await send(
            .post, "/admin/clients/\(facts.servicesID)/return-urls", ["url": JuiceConfiguration.redirectURI(baseURL: juiceBaseURL)],
            client: client)
        try await send(
            .put, "/admin/app-groups/\(facts.bundleID)/notification-endpoint",
            ["url": JuiceConfiguration.notificationURL(baseURL: juiceBaseURL)], client: client)
    }

    private enum Method { case post, put }

    private func send(_ method: Method, _ path: String, _ body: [String: String], client: HTTPClient) async throws {
        let url = facts.server + path
        var request = HTTPClientRequest(url: url)
        request.method = method == .post ? .POST : .PUT
        request.headers.add(name: "Authorization", value: "Bearer \(facts.adminToken)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        let response = try await client.execute(request, timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 64 * 1024)
        guard (200..<300).contains(response.status.code) else { throw SetupError.registrationFailed(url, Int(response.status.code)) }
    }
}
