import AppleIDAdminAPI
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

/// The admin API over HTTP: AppleIDAdminAPI's types in and out, printed as JSON; a refusal is printed
/// to stderr with a non-zero exit status.
struct AdminClient {
    let baseURL: String
    let token: String
    /// Replaced for a long-poll (`siwa mail wait`), which outlasts the usual 10 s.
    var transport: any HTTPTransport = AsyncHTTPClientTransport(userAgent: "siwa")

    /// Sends the call with `body` and decodes its answer as `Answer` (``NoAnswer`` for 204).
    @discardableResult
    func send<Body: Encodable, Answer: Decodable>(
        _ method: HTTPTransportRequest.Method, _ path: String, _ body: Body?, as answer: Answer.Type = Answer.self
    ) async throws -> Answer {
        var headers = [(name: "Authorization", value: "Bearer \(token)")]
        var bytes: [UInt8]?
        if let body {
            headers.append((name: "Content-Type", value: "application/json"))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            bytes = Array(try encoder.encode(body))
        }
        let response: HTTPTransportResponse
        do {
            response = try await transport.send(HTTPTransportRequest(method: method, url: baseURL + path, headers: headers, body: bytes))
        } catch {
            throw AdminFailure(message: "cannot reach \(baseURL): \(Self.plain(error))")
        }
        let call = "\(method.rawValue) \(path) → \(response.status)"
        if response.status == 401 {
            throw AdminFailure(
                message: "the admin token was refused (\(call)): pass the server's --admin-token, or the --data-dir of the siwa serve that wrote it")
        }
        // A refusal is a failure whatever its status: never printed as an answer with exit 0.
        if let refusal = Self.refusal(in: response.body, call: call) { throw AdminFailure(message: refusal) }
        guard (200..<300).contains(response.status) else {
            throw AdminFailure(message: "\(call): \(String(decoding: response.body, as: UTF8.self))")
        }
        do {
            return try Self.decoder.decode(Answer.self, from: response.body.isEmpty ? Data("{}".utf8) : Data(response.body))
        } catch {
            throw AdminFailure(message: "\(call) answered something that is not the admin API's \(Answer.self): \(error)")
        }
    }

    /// Sends a call without a body.
    @discardableResult
    func send<Answer: Decodable>(_ method: HTTPTransportRequest.Method, _ path: String, as answer: Answer.Type = Answer.self) async throws -> Answer {
        try await send(method, path, NoBody?.none, as: answer)
    }

    /// Calls and prints the answer as indented JSON (or "ok" for an empty answer).
    func show<Body: Encodable, Answer: Codable>(
        _ method: HTTPTransportRequest.Method, _ path: String, _ body: Body?, as answer: Answer.Type
    ) async throws {
        Self.print(try await send(method, path, body, as: answer))
    }

    /// Calls without a body and prints the answer.
    func show<Answer: Codable>(_ method: HTTPTransportRequest.Method, _ path: String, as answer: Answer.Type) async throws {
        try await show(method, path, NoBody?.none, as: answer)
    }

    /// The admin API's dates are ISO 8601 (as `AdminEndpoints.json` writes them).
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The error an answer reports, at its top or in one of its `results`, as one line with the
    /// server's reason first: `no team T (invalid_request from POST /admin/teams/T/keys → 404)`.
    static func refusal(in body: [UInt8], call: String) -> String? {
        guard !body.isEmpty, let answer = try? JSONDecoder().decode(AdminRefusal.self, from: Data(body)),
            let failed = answer.firstError, var error = failed.error
        else { return nil }
        if let code = failed.code { error += " \(code)" }  // ASAuthorizationError's number
        return failed.errorDescription.map { "\($0) (\(error) from \(call))" } ?? "\(error) (from \(call))"
    }

    static func print(_ answer: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard !(answer is NoAnswer), let data = try? encoder.encode(answer), data != Data("{}".utf8) else {
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
