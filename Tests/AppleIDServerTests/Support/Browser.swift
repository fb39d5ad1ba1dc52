import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting

/// A browser for in-process tests: keeps the cookies the server sets and sends them back.
final class Browser {
    /// The server it talks to; a test of several instances points it at another one mid-flow.
    var client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]
    /// Sent as `Accept-Language` with every request when set.
    var acceptLanguage: String?

    init(_ client: any TestClientProtocol) { self.client = client }

    @discardableResult
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await send(uri, method: .get, body: nil, headers: headers)
    }

    @discardableResult
    func post(_ uri: String, form fields: [(String, String)]) async throws -> TestResponse {
        try await send(uri, method: .post, body: Form.encode(fields))
    }

    private func send(_ uri: String, method: HTTPRequest.Method, body: String?, headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        if let acceptLanguage { headers[.acceptLanguage] = acceptLanguage }
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }
        let response = try await client.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        for header in response.headers[values: .setCookie] {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
        }
        return response
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }
}
