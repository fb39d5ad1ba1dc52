import AppleIDProtocol
import Crypto
import Foundation
import Synchronization
import Testing

@testable import SignInWithApple

@Suite("Token client: requests, Apple's errors, retries only where safe")
struct TokenClientTests {
    /// Answers with scripted responses (then the last one forever) and records the requests.
    final class ScriptedTransport: HTTPTransport {
        private let state: Mutex<(answers: [Result<HTTPTransportResponse, AppleServiceError>], requests: [HTTPTransportRequest])>

        init(_ answers: [Result<HTTPTransportResponse, AppleServiceError>]) { state = Mutex((answers, [])) }

        var requests: [HTTPTransportRequest] { state.withLock { $0.requests } }

        func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
            let answer = state.withLock { state in
                state.requests.append(request)
                return state.answers.count > 1 ? state.answers.removeFirst() : state.answers[0]
            }
            return try answer.get()
        }
    }

    static func client(
        _ transport: ScriptedTransport, retry: AppleTokenClient.RetryPolicy = .init(maximumAttempts: 3, initialDelay: .zero)
    )
        throws -> AppleTokenClient
    {
        let credentials = AppleCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation)
        let secrets = try ClientSecretProvider(credentials: credentials, clientID: "com.example.web", environment: .production)
        return AppleTokenClient(environment: .production, secrets: secrets, transport: transport, retry: retry)
    }

    static func ok(_ json: String) -> Result<HTTPTransportResponse, AppleServiceError> { .success(.init(status: 200, body: Array(json.utf8))) }
    static func status(_ code: Int, _ body: String = "") -> Result<HTTPTransportResponse, AppleServiceError> {
        .success(.init(status: code, body: Array(body.utf8)))
    }

    static func fields(_ request: HTTPTransportRequest) -> [String: String] {
        Dictionary(
            String(decoding: request.body ?? [], as: UTF8.self).split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { first, _ in first })
    }

    @Test("a code exchange is never retried: a repeat would revoke what the first one issued")
    func exchangeNotRetried() async throws {
        let transport = ScriptedTransport([.failure(.transport("connection reset"))])
        await #expect(throws: AppleServiceError.transport("connection reset")) {
            try await Self.client(transport).exchange(code: "c1", redirectURI: nil)
        }
        #expect(transport.requests.count == 1)
        #expect(Self.fields(transport.requests[0])["redirect_uri"] == nil, "native codes are exchanged without redirect_uri")
    }

    @Test("refresh is retried on 5xx and transport errors, not on Apple's refusals")
    func refreshRetries() async throws {
        let retried = ScriptedTransport([
            Self.status(503), .failure(.transport("timeout")),
            Self.ok(#"{"access_token":"a","token_type":"Bearer","expires_in":3600,"id_token":"t"}"#),
        ])
        let answer = try await Self.client(retried).refresh(refreshToken: "r1")
        #expect(answer.accessToken == "a")
        #expect(retried.requests.count == 3)
        #expect(Self.fields(retried.requests[2])["grant_type"] == "refresh_token")

        let refused = ScriptedTransport([
            Self.status(400, #"{"error":"invalid_grant","error_description":"The token has expired or has been revoked."}"#)
        ])
        let error = await VerifierSupport.failure { try await Self.client(refused).refresh(refreshToken: "r1") }
        guard let refusal = (error as? AppleServiceError)?.refusal else {
            Issue.record("expected a refusal, got \(String(describing: error))")
            return
        }
        #expect(refusal.code == .invalidGrant)
        #expect(refusal.errorDescription == "The token has expired or has been revoked.")
        #expect(refusal.status == 400)
        #expect(refused.requests.count == 1)
    }

    @Test("an HTML 403 (Apple's answer to some user agents) is an unexpected response, not a crash")
    func htmlForbidden() async throws {
        let transport = ScriptedTransport([Self.status(403, "<html><center>Apple</center></html>")])
        await #expect(throws: AppleServiceError.unexpectedResponse(status: 403, reason: "not an OAuth answer")) {
            try await Self.client(transport, retry: .none).revoke(token: "r1")
        }
    }

    @Test("user migration: client credentials, then sub → transfer_sub and transfer_sub → the new identity (spec §17.4)")
    func migration() async throws {
        let transport = ScriptedTransport([
            Self.ok(#"{"access_token":"m","token_type":"Bearer","expires_in":3600}"#),
            Self.ok(#"{"transfer_sub":"760417.ebbf12acbc78e1be1668ba852d492d8a.1827"}"#),
            Self.ok(#"{"sub":"820417.faa325acbc78e1be1668ba852d492d8a.0219","email":"ep9ks2tnph@privaterelay.appleid.com","is_private_email":true}"#),
        ])
        let client = try Self.client(transport)
        let token = try await client.userMigrationToken()
        #expect(Self.fields(transport.requests[0])["scope"] == "user.migration")
        #expect(Self.fields(transport.requests[0])["grant_type"] == "client_credentials")
        let transferSub = try await client.transferSubject(
            for: "000148.f06d822ce0b2483aaa97d273b0978325.1717", recipientTeamID: "NEWTEAM123", accessToken: token.accessToken)
        #expect(transferSub == "760417.ebbf12acbc78e1be1668ba852d492d8a.1827")
        #expect(transport.requests[1].url == "https://appleid.apple.com/auth/usermigrationinfo")
        #expect(transport.requests[1].headers.contains { $0.name == "Authorization" && $0.value == "Bearer m" })
        #expect(Self.fields(transport.requests[1])["target"] == "NEWTEAM123")
        let user = try await client.migratedUser(transferSubject: transferSub, accessToken: token.accessToken)
        #expect(
            user
                == MigratedUser(
                    subject: "820417.faa325acbc78e1be1668ba852d492d8a.0219", email: "ep9ks2tnph@privaterelay.appleid.com", isPrivateEmail: true))
    }
}
