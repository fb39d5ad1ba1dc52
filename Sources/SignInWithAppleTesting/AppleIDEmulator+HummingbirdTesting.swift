import Hummingbird
import HummingbirdTesting
import NIOCore
import SignInWithApple

extension AppleIDEmulator {
    /// ``signIn(throughApp:start:as:choices:cookies:)`` with a Hummingbird test client: the app's
    /// routes run in `app.test(.router)` (or `.live`), no port needed.
    ///
    /// ```swift
    /// try await app.test(.router) { client in
    ///     let signIn = try await apple.signIn(through: client, as: apple.defaultUser.appleID)
    ///     #expect(signIn.response.status == 200)
    /// }
    /// ```
    public func signIn(
        through client: some TestClientProtocol, start: String = "/auth/apple", as appleID: String, choices: ConsentChoices? = nil,
        cookies: [String: String] = [:]
    ) async throws -> AppSignIn {
        try await signIn(throughApp: { try await client.send($0) }, start: start, as: appleID, choices: choices, cookies: cookies)
    }
}

extension TestClientProtocol {
    /// Sends an ``AppRequest`` through this test client.
    func send(_ request: AppRequest) async throws -> AppResponse {
        var headers = HTTPFields()
        for header in request.headers {
            guard let name = HTTPFields.Element.Name(header.name) else { continue }
            headers.append(HTTPFields.Element(name: name, value: header.value))
        }
        let response = try await executeRequest(
            uri: request.uri, method: HTTPRequest.Method(request.method) ?? .get, headers: headers,
            body: request.body.isEmpty ? nil : ByteBuffer(bytes: request.body))
        return AppResponse(
            status: Int(response.status.code), headers: response.headers.map { ($0.name.rawName, $0.value) }, body: Array(buffer: response.body))
    }
}
