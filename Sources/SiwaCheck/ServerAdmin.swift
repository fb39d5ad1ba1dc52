import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The Apple ID server's admin API as the check uses it: headless approval, the fault switch and
/// the client's quirks.
struct ServerAdmin: Sendable {
    let baseURL: String
    let token: String
    let client: HTTPClient

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Approves the authorization request `parameters` (what the app sent to /auth/authorize) as
    /// `appleID`, and returns what the server sends back to the Return URL.
    func approve(_ parameters: [String: String], as appleID: String) async throws -> [String: String] {
        var order = parameters
        order["apple_id"] = appleID
        let answer = try await call(.POST, "/admin/authorizations", order)
        struct Results: Decodable { var results: [[String: String]] }
        guard let first = try JSONDecoder().decode(Results.self, from: Data(answer)).results.first else {
            throw Failure(description: "the server approved nothing")
        }
        return first
    }

    /// Arms one fault of the next token response for `clientID` (development mode only).
    func arm(_ fault: String, for clientID: String, delaySeconds: Double? = nil) async throws {
        var order: [String: String] = ["client_id": clientID, "fault": fault]
        if let delaySeconds { order["delay_seconds"] = "\(delaySeconds)" }
        _ = try await call(.POST, "/admin/faults", order, numbers: ["delay_seconds"])
    }

    func disarm(_ clientID: String) async throws {
        _ = try await call(.DELETE, "/admin/faults/\(clientID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? clientID)", nil)
    }

    /// Registers `url` as a Return URL of `clientID` (idempotent): the server `siwa check` started.
    func addReturnURL(_ url: String, for clientID: String) async throws {
        let path = "/admin/clients/\(clientID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? clientID)/return-urls"
        _ = try await call(.POST, path, ["url": url])
    }

    /// Switches `email_verified` / `is_private_email` as strings on or off for `clientID`.
    func stringBooleans(_ on: Bool, for clientID: String) async throws {
        let path = "/admin/clients/\(clientID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? clientID)/quirks"
        _ = try await call(.PUT, path, ["booleans_as_strings": on ? "true" : "false"], numbers: ["booleans_as_strings"])
    }

    /// A `consent-revoked` for `appleID`'s user of `clientID`, signed by the server (genuine, or with
    /// `fault`'s claim spoiled): the JWT of `{"payload": …}` (development mode only).
    func notification(for appleID: String, clientID: String, fault: String? = nil) async throws -> String {
        var order = ["client_id": clientID, "apple_id": appleID]
        if let fault { order["fault"] = fault }
        let answer = try JSONDecoder().decode([String: String].self, from: Data(try await call(.POST, "/admin/notifications", order)))
        guard let payload = answer["payload"] else { throw Failure(description: "the server answered no notification") }
        return payload
    }

    /// One entry of the client's request log, newest first.
    struct LoggedRequest: Decodable, Sendable, Equatable {
        var endpoint: String
        var at: String
        var outcome: String
        var reason: String
        var proven: Bool
    }

    func requests(of clientID: String) async throws -> [LoggedRequest] {
        struct Log: Decodable { var requests: [LoggedRequest] }
        return try JSONDecoder().decode(Log.self, from: Data(try await call(.GET, "/admin/clients/\(Self.escape(clientID))/requests", nil))).requests
    }

    /// The entries of `log` written since `earlier` was read, newest first. The log is bounded (old
    /// entries drop out as new ones come), so they are found by where `earlier` continues, not by count.
    static func newEntries(_ log: [LoggedRequest], since earlier: [LoggedRequest]) -> [LoggedRequest] {
        guard let newestBefore = earlier.first else { return log }
        for start in log.indices where log[start] == newestBefore {
            let overlap = min(log.count - start, earlier.count)
            if Array(log[start..<start + overlap]) == Array(earlier.prefix(overlap)) { return Array(log[..<start]) }
        }
        return log
    }

    /// `authorized`, `revoked`, `notFound` or `transferred`.
    func credentialState(of appleID: String, clientID: String) async throws -> String {
        let path = "/admin/credential-state?apple_id=\(Self.escape(appleID))&client_id=\(Self.escape(clientID))"
        return try JSONDecoder().decode([String: String].self, from: Data(try await call(.GET, path, nil)))["state"] ?? ""
    }

    static func escape(_ value: String) -> String { value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value }

    /// `numbers`: fields sent as JSON numbers or booleans rather than strings.
    func call(_ method: HTTPMethod, _ path: String, _ body: [String: String]?, numbers: Set<String> = []) async throws -> [UInt8] {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            let object = body.reduce(into: [String: Any]()) { object, field in
                object[field.key] =
                    numbers.contains(field.key)
                    ? (try? JSONSerialization.jsonObject(with: Data(field.value.utf8), options: .fragmentsAllowed)) ?? field.value : field.value
            }
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object)))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = Array(buffer: try await response.body.collect(upTo: 1 << 20))
        guard (200..<300).contains(Int(response.status.code)) else {
            throw Failure(description: "\(method.rawValue) \(path) → \(response.status.code) \(String(decoding: bytes, as: UTF8.self))")
        }
        return bytes
    }
}
