import AppleIDAdminAPI
import AppleIDProtocol
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
    /// `hideEmail`: on a first authorization, Hide My Email (a relay address) instead of the default choice.
    func approve(_ parameters: [String: String], as appleID: String, hideEmail: Bool? = nil) async throws -> [String: String] {
        // The app's parameters as the authorization request reads them (the others the server ignores).
        let request = try JSONDecoder().decode(AuthorizationRequest.self, from: try JSONEncoder().encode(parameters))
        let answer = try await send(
            .POST, "/admin/authorizations", AuthorizationOrder(authorization: request, appleID: appleID, hideEmail: hideEmail))
        guard let first = try Self.decode(AuthorizationResults.self, answer).results.first else {
            throw Failure(description: "the server approved nothing")
        }
        return first
    }

    /// Arms one fault of the next token response for `clientID` (development mode only).
    func arm(_ fault: String, for clientID: String, delaySeconds: Double? = nil) async throws {
        _ = try await send(.POST, "/admin/faults", FaultOrder(clientID: clientID, fault: fault, delaySeconds: delaySeconds))
    }

    func disarm(_ clientID: String) async throws {
        _ = try await exchange(.DELETE, "/admin/faults/\(clientID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? clientID)", nil)
    }

    /// A new Apple ID that has never signed in anywhere (its first sign-in is a first authorization).
    func createUser(appleID: String, password: String) async throws {
        _ = try await send(.POST, "/admin/users", AccountOrder(appleID: appleID, password: password, firstName: "Rena", lastName: "Relay"))
    }

    /// Registers `url` as a Return URL of `clientID` (idempotent): the server `siwa check` started.
    func addReturnURL(_ url: String, for clientID: String) async throws {
        let path = "/admin/clients/\(clientID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? clientID)/return-urls"
        _ = try await send(.POST, path, ReturnURLOrder(url: url))
    }

    /// The client as `GET /admin/clients/{client}` shows it: its switches, only those set.
    func client(_ clientID: String) async throws -> ClientView {
        try Self.decode(ClientView.self, try await exchange(.GET, "/admin/clients/\(Self.escape(clientID))", nil))
    }

    /// Changes the switches `order` sets for `clientID`; the others stay.
    func changeQuirks(_ order: QuirksOrder, for clientID: String) async throws {
        _ = try await send(.PUT, "/admin/clients/\(Self.escape(clientID))/quirks", order)
    }

    /// A `consent-revoked` (or `event`, an account deletion) for `appleID`'s user of `clientID`, signed by
    /// the server (genuine, or with `fault`'s claim spoiled): the JWT of `{"payload": …}` (development mode only).
    func notification(for appleID: String, clientID: String, event: String? = nil, fault: String? = nil) async throws -> String {
        let order = NotificationOrder(clientID: clientID, appleID: appleID, event: event, fault: fault)
        return try Self.decode(NotificationView.self, try await send(.POST, "/admin/notifications", order)).payload
    }

    /// One entry of the client's request log, newest first.
    typealias LoggedRequest = RequestView

    func requests(of clientID: String) async throws -> [LoggedRequest] {
        try Self.decode(RequestList.self, try await exchange(.GET, "/admin/clients/\(Self.escape(clientID))/requests", nil)).requests
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
        return try Self.decode(CredentialStateView.self, try await exchange(.GET, path, nil)).state
    }

    static func escape(_ value: String) -> String { value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value }

    /// Sends `body` as the admin API's JSON.
    func send(_ method: HTTPMethod, _ path: String, _ body: some Encodable) async throws -> [UInt8] {
        try await exchange(method, path, Array(try JSONEncoder().encode(body)))
    }

    /// An answer as the admin API's type (dates in ISO 8601).
    static func decode<Answer: Decodable>(_ type: Answer.Type, _ bytes: [UInt8]) throws -> Answer {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: Data(bytes))
    }

    /// One call: the JSON `body` out, the answer's bytes back; a status other than 2xx is a failure.
    func exchange(_ method: HTTPMethod, _ path: String, _ body: [UInt8]?) async throws -> [UInt8] {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = Array(buffer: try await response.body.collect(upTo: 1 << 20))
        guard (200..<300).contains(Int(response.status.code)) else {
            throw Failure(description: "\(method.rawValue) \(path) → \(response.status.code) \(String(decoding: bytes, as: UTF8.self))")
        }
        return bytes
    }
}
