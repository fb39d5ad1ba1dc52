import AppleIDProtocol
import Foundation

/// Calls Apple's token, revocation and user-migration endpoints with a fresh client secret.
///
/// Only requests that are safe to repeat are retried (refresh, revoke, client credentials, migration
/// lookups), on transport errors and 5xx answers, with exponential backoff. A code exchange is never
/// retried: a code is single use, and a repeat would revoke what the first one issued.
public struct AppleTokenClient: Sendable {
    public struct RetryPolicy: Sendable, Hashable {
        public var maximumAttempts: Int
        public var initialDelay: Duration

        public init(maximumAttempts: Int = 3, initialDelay: Duration = .milliseconds(200)) {
            self.maximumAttempts = max(1, maximumAttempts)
            self.initialDelay = initialDelay
        }

        public static let none = RetryPolicy(maximumAttempts: 1, initialDelay: .zero)
    }

    public let environment: AppleEnvironment
    public let clientID: String
    let secrets: ClientSecretProvider
    let transport: any HTTPTransport
    public let retry: RetryPolicy

    public init(
        environment: AppleEnvironment, secrets: ClientSecretProvider, transport: any HTTPTransport, retry: RetryPolicy = RetryPolicy()
    ) {
        self.environment = environment
        self.clientID = secrets.clientID
        self.secrets = secrets
        self.transport = transport
        self.retry = retry
    }

    /// Exchanges an authorization code. Web codes need the `redirectURI` of the authorization;
    /// native codes are exchanged without one (spec §4.1).
    ///
    /// A refusal is thrown as ``AppleServiceError/refused(_:)`` with its likely causes: for
    /// `invalid_grant`, an expired or reused code, a code of another client (native or web), a
    /// `redirect_uri` that differs; for `invalid_client`, what the kit's inspection of the secret found.
    public func exchange(code: String, redirectURI: String?, codeVerifier: String? = nil) async throws -> TokenResponse {
        let secret = try await secrets.secret()
        let body = FormURLEncoding.body([
            ("client_id", clientID), ("client_secret", secret), ("code", code), ("grant_type", GrantType.authorizationCode.rawValue),
            ("redirect_uri", redirectURI), ("code_verifier", codeVerifier),
        ])
        let answer = try await post(environment.tokenEndpoint, body: body, secret: secret, kind: .codeExchange(redirectURI: redirectURI))
        return try decode(TokenResponse.self, from: answer)
    }

    /// A new access token and id_token for a refresh token (no new refresh token; spec §4.2).
    public func refresh(refreshToken: String) async throws -> TokenResponse {
        try decode(
            TokenResponse.self,
            from: try await postRetrying(environment.tokenEndpoint, request: .refresh) { secret in
                FormURLEncoding.body([
                    ("client_id", clientID), ("client_secret", secret), ("grant_type", GrantType.refreshToken.rawValue),
                    ("refresh_token", refreshToken),
                ])
            })
    }

    /// Revokes a refresh or access token, and with it the user's authorization of the app (spec §6).
    /// Call it when the user deletes their account.
    public func revoke(token: String, hint: TokenTypeHint? = .refreshToken) async throws {
        _ = try await postRetrying(environment.revocationEndpoint, request: .revocation) { secret in
            FormURLEncoding.body([("client_id", clientID), ("client_secret", secret), ("token", token), ("token_type_hint", hint?.rawValue)])
        }
    }

    /// A client-credentials access token with scope `user.migration` (app transfers; spec §4.3).
    public func userMigrationToken() async throws -> TokenResponse {
        try decode(
            TokenResponse.self,
            from: try await postRetrying(environment.tokenEndpoint, request: .clientCredentials) { secret in
                FormURLEncoding.body([
                    ("grant_type", GrantType.clientCredentials.rawValue), ("scope", Scope.userMigration.rawValue), ("client_id", clientID),
                    ("client_secret", secret),
                ])
            })
    }

    /// The transfer identifier of `subject` for the recipient team (sending team's side; spec §17.4).
    public func transferSubject(for subject: String, recipientTeamID: String, accessToken: String) async throws -> String {
        struct Answer: Decodable { let transfer_sub: String }
        let body = try await postRetrying(environment.userMigrationInfoEndpoint, bearer: accessToken, request: .userMigration) { secret in
            FormURLEncoding.body([("sub", subject), ("target", recipientTeamID), ("client_id", clientID), ("client_secret", secret)])
        }
        return try decode(Answer.self, from: body).transfer_sub
    }

    /// The new identity of a transferred user (recipient team's side; spec §17.4).
    public func migratedUser(transferSubject: String, accessToken: String) async throws -> MigratedUser {
        try decode(
            MigratedUser.self,
            from: try await postRetrying(environment.userMigrationInfoEndpoint, bearer: accessToken, request: .userMigration) { secret in
                FormURLEncoding.body([("transfer_sub", transferSubject), ("client_id", clientID), ("client_secret", secret)])
            })
    }

    /// Posts with a current secret, again after a transport error or 5xx (see ``RetryPolicy``).
    private func postRetrying(
        _ url: String, bearer: String? = nil, request: TokenRequestKind, body: (_ secret: String) -> [UInt8]
    ) async throws -> [UInt8] {
        var delay = retry.initialDelay
        for attempt in 1...retry.maximumAttempts {
            do {
                let secret = try await secrets.secret()
                return try await post(url, body: body(secret), secret: secret, kind: request, bearer: bearer)
            } catch let error as AppleServiceError {
                guard attempt < retry.maximumAttempts, error.isWorthRetrying else { throw error }
                try await Task.sleep(for: delay)
                delay *= 2
            }
        }
        throw AppleServiceError.transport("no attempt was made")
    }

    /// Posts `body`; an OAuth error is explained with the `secret` that was sent and the `kind` of request.
    private func post(_ url: String, body: [UInt8], secret: String, kind: TokenRequestKind, bearer: String? = nil) async throws -> [UInt8] {
        var headers = [(name: "Content-Type", value: "application/x-www-form-urlencoded"), (name: "Accept", value: "application/json")]
        if let bearer { headers.append((name: "Authorization", value: "Bearer \(bearer)")) }
        let response: HTTPTransportResponse
        do {
            response = try await transport.send(HTTPTransportRequest(method: .post, url: url, headers: headers, body: body))
        } catch let error as AppleServiceError {
            throw error
        } catch {
            throw AppleServiceError.transport("\(error)")
        }
        if (200..<300).contains(response.status) { return response.body }
        if let refusal = try? JSONDecoder().decode(OAuthErrorResponse.self, from: Data(response.body)) {
            let identity = secrets.identity
            let context = RefusalContext(
                request: kind, clientID: clientID, teamID: identity.teamID, keyID: identity.keyID,
                clientSecretReport: secrets.inspect(secret))
            throw AppleServiceError.refused(
                AppleRefusal(code: refusal.error, errorDescription: refusal.errorDescription, status: response.status, context: context))
        }
        throw AppleServiceError.unexpectedResponse(status: response.status, reason: "not an OAuth answer")
    }

    private func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            throw AppleServiceError.unexpectedResponse(status: 200, reason: "the answer is not a \(type)")
        }
    }
}

/// The recipient team's view of a transferred user (spec §17.4).
public struct MigratedUser: Sendable, Hashable, Decodable {
    public var subject: String
    public var email: String?
    public var isPrivateEmail: Bool?

    enum CodingKeys: String, CodingKey {
        case subject = "sub"
        case email
        case isPrivateEmail = "is_private_email"
    }
}

extension AppleServiceError {
    /// Transport failures and server errors may succeed on a second try; Apple's refusals will not.
    var isWorthRetrying: Bool {
        if kind == .transport { return true }
        guard let status else { return false }
        return status >= 500 || (kind == .unexpectedResponse && status == 429)
    }
}
