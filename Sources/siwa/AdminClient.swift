import AppleIDProtocol
import ArgumentParser
import Foundation
import SignInWithApple

/// Where the admin API is and how to authenticate: from the flags, else from `demo.json` of the
/// data directory that `siwa serve` wrote.
struct AdminConnection: ParsableArguments {
    @Option(help: "The server's URL (default: \"server\" in <data-dir>/demo.json).") var server: String?
    @Option(help: "The admin bearer token (default: \"admin_token\" in <data-dir>/demo.json).") var adminToken: String?
    @Option(help: "The data directory of siwa serve.") var dataDir = ".siwa"

    func client() throws -> AdminClient {
        var server = server
        var token = adminToken
        if server == nil || token == nil {
            let folder = URL(fileURLWithPath: dataDir)
            let facts: DemoFacts?
            do {
                facts = try DemoFacts.read(fromDataDirectory: folder)
            } catch {
                throw ValidationError("\(DemoFacts.fileURL(inDataDirectory: folder).path) is not the demo.json siwa serve writes: \(error)")
            }
            guard let facts else {
                throw ValidationError(
                    "no \(DemoFacts.fileURL(inDataDirectory: folder).path): start `siwa serve` first, or pass --server and --admin-token")
            }
            server = server ?? facts.server
            token = token ?? facts.adminToken
        }
        guard let server, let token else { throw ValidationError("pass --server and --admin-token") }
        return AdminClient(baseURL: server.hasSuffix("/") ? String(server.dropLast()) : server, token: token)
    }
}

/// The admin API over HTTP: JSON in, JSON printed out; a refusal is printed to stderr with a
/// non-zero exit status.
struct AdminClient {
    let baseURL: String
    let token: String
    /// Replaced for a long-poll (`siwa mail wait`), which outlasts the usual 10 s.
    var transport: any HTTPTransport = AsyncHTTPClientTransport(userAgent: "siwa")

    /// Sends the call and returns the JSON answer (an empty object for 204).
    @discardableResult
    func call(_ method: HTTPTransportRequest.Method, _ path: String, _ body: [String: Any?]? = nil) async throws -> [String: Any] {
        var headers = [(name: "Authorization", value: "Bearer \(token)")]
        var bytes: [UInt8]?
        if let body {
            headers.append((name: "Content-Type", value: "application/json"))
            bytes = Array(try JSONSerialization.data(withJSONObject: body.compactMapValues { $0 }, options: [.sortedKeys]))
        }
        let response: HTTPTransportResponse
        do {
            response = try await transport.send(HTTPTransportRequest(method: method, url: baseURL + path, headers: headers, body: bytes))
        } catch {
            throw AdminFailure(message: "cannot reach \(baseURL): \(Self.plain(error))")
        }
        let call = "\(method.rawValue) \(path) → \(response.status)"
        let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        if response.status == 401 {
            throw AdminFailure(
                message: "the admin token was refused (\(call)): pass the server's --admin-token, or the --data-dir of the siwa serve that wrote it")
        }
        // A refusal is a failure whatever its status: never printed as an answer with exit 0.
        if let object, let refusal = Self.refusal(in: object, call: call) { throw AdminFailure(message: refusal) }
        guard (200..<300).contains(response.status) else {
            throw AdminFailure(message: "\(call): \(String(decoding: response.body, as: UTF8.self))")
        }
        guard !response.body.isEmpty else { return [:] }
        guard let object else { throw AdminFailure(message: "\(call) answered something that is not a JSON object") }
        return object
    }

    /// The error an answer reports, at its top or in one of its `results`, as one line with the
    /// server's reason first: `no team T (invalid_request from POST /admin/teams/T/keys → 404)`.
    static func refusal(in object: [String: Any], call: String) -> String? {
        let answers = [object] + (object["results"] as? [[String: Any]] ?? [])
        guard let failed = answers.first(where: { $0["error"] is String }), var error = failed["error"] as? String else { return nil }
        if let code = failed["code"] as? Int { error += " \(code)" }  // ASAuthorizationError's number
        return (failed["error_description"] as? String).map { "\($0) (\(error) from \(call))" } ?? "\(error) (from \(call))"
    }

    /// Calls and prints the answer as indented JSON (or "ok" for an empty answer).
    func run(_ method: HTTPTransportRequest.Method, _ path: String, _ body: [String: Any?]? = nil) async throws {
        Self.print(try await call(method, path, body))
    }

    static func print(_ object: [String: Any]) {
        guard !object.isEmpty,
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else {
            Swift.print("ok")
            return
        }
        Swift.print(String(decoding: data, as: UTF8.self))
    }

    /// A connection failure in words: NIO's descriptions nest parentheses ("connection reset (error
    /// set): Connection refused) (errno: 111)").
    static func plain(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("Connection refused") || text.contains("errno: 111") { return "connection refused (is `siwa serve` running there?)" }
        if text.contains("Connection timed out") || text.contains("errno: 110") { return "the connection timed out" }
        if text.contains("nodename nor servname") || text.contains("Name or service not known") { return "the host name does not resolve" }
        return text
    }

    /// A path segment with everything but unreserved characters percent-encoded.
    static func segment(_ value: String) -> String {
        value.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~@"))
            ?? value
    }
}

/// A refused or failed admin call: ArgumentParser prints `Error: <message>` to stderr and exits with 1.
struct AdminFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
