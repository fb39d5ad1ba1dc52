import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// App transfer between teams (spec §17.4), through the admin API and the wire endpoints.
@Suite("App transfer: from the sender's sub to the recipient's new sub")
struct AppTransferTests {
    static let recipient: TeamID = "RECIPIENTK"

    /// Maria authorized Juice hiding her e-mail; the group is then transferred to `recipient`, who
    /// registers a key. Returns the recipient's key and Maria's sender-side `sub` and relay address.
    static func transferred(
        _ server: TestServer, _ client: some TestClientProtocol
    ) async throws -> (recipientKey: (id: KeyID, pem: String), senderSubject: Subject, senderRelay: String) {
        let account = try #require(try await server.provider.lookUpAccount(appleID: TestServer.maria.appleID))
        let sender = try #require(try await server.teamIdentity(of: account))
        let team = try await client.execute(
            uri: "/admin/teams", method: .post, headers: RP.adminHeaders,
            body: ByteBuffer(string: #"{"team_id":"RECIPIENTK","name":"New Owner Inc."}"#))
        #expect(team.status == .ok)
        let moved = try await client.execute(
            uri: "/admin/transfers", method: .post, headers: RP.adminHeaders,
            body: ByteBuffer(string: #"{"group_id":"com.example.juice","recipient_team_id":"RECIPIENTK"}"#))
        #expect(moved.status == .ok, "\(moved.text)")
        let transfer = try JSONDecoder().decode([String: String].self, from: Data(buffer: moved.body))
        #expect(transfer["from_team_id"] == TestServer.teamID.rawValue)
        #expect(transfer["to_team_id"] == recipient.rawValue)
        let keyAnswer = try await client.execute(
            uri: "/admin/teams/RECIPIENTK/keys", method: .post, headers: RP.adminHeaders,
            body: ByteBuffer(string: #"{"primary_app_id":"com.example.juice"}"#))
        let key = try JSONDecoder().decode([String: String].self, from: Data(buffer: keyAnswer.body))
        return (
            (KeyID(rawValue: try #require(key["key_id"])), try #require(key["private_key_pem"])), sender.subject, try #require(sender.relayAddress)
        )
    }

    static func recipientSecret(_ server: TestServer, key: (id: KeyID, pem: String)) async throws -> String {
        try await ClientSecretMinter(teamID: recipient, keyID: key.id, privateKeyPEM: key.pem)
            .mint(clientID: TestServer.servicesID, audience: TestServer.issuer, issuedAt: server.clock.now(), lifetime: 300)
    }

    static func migrationToken(_ client: some TestClientProtocol, secret: String) async throws -> TestResponse {
        try await RP.post(
            client, "/auth/token",
            [
                ("grant_type", "client_credentials"), ("scope", "user.migration"), ("client_id", TestServer.servicesID.rawValue),
                ("client_secret", secret),
            ])
    }

    static func accessToken(_ response: TestResponse) throws -> String {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
        #expect(json["token_type"] as? String == "Bearer")
        #expect(json["expires_in"] as? Int == 3600)
        #expect(json["refresh_token"] == nil && json["id_token"] == nil)
        return try #require(json["access_token"] as? String)
    }

    /// A string member of a JSON answer (token responses mix strings and numbers).
    static func member(_ response: TestResponse, _ name: String) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])?[name] as? String
    }

    static func migrationInfo(
        _ client: some TestClientProtocol, bearer: String?, secret: String, _ fields: [(String, String)]
    ) async throws -> TestResponse {
        var headers = Form.headers
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        let body = Form.encode(fields + [("client_id", TestServer.servicesID.rawValue), ("client_secret", secret)])
        return try await client.execute(uri: "/auth/usermigrationinfo", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test("sender's sub → transfer_sub → recipient's new sub and relay; id_tokens carry transfer_sub for 60 days")
    func scenario() async throws {
        let (server, _, _) = try await TestServer.authorized()
        try await server.app.test(.router) { client in
            let before = try await RP.authorize(client, RP.Order(responseMode: "form_post", scope: "email"))
            let beforeTokens = try await RP.redeem(client, code: try #require(before["code"]), secret: try await server.clientSecret())
            let oldRefresh = try #require(Self.member(beforeTokens, "refresh_token"))

            let (key, senderSubject, senderRelay) = try await Self.transferred(server, client)
            let senderSecret = try await server.clientSecret()
            let recipientSecret = try await Self.recipientSecret(server, key: key)

            // The native app of the old team sees `transferred` for the old sub.
            let state = try await server.provider.credentialState(subject: senderSubject, clientID: TestServer.bundleID)
            #expect(state == .transferred)

            // Sending team: its own secret still authenticates the migration calls, and only those.
            let senderToken = try Self.accessToken(try await Self.migrationToken(client, secret: senderSecret))
            let transferAnswer = try await Self.migrationInfo(
                client, bearer: senderToken, secret: senderSecret, [("sub", senderSubject.rawValue), ("target", "RECIPIENTK")])
            #expect(transferAnswer.status == .ok)
            #expect(transferAnswer.headers[.cacheControl] == "no-store")
            let transferSubject = try #require(try transferAnswer.jsonStrings()["transfer_sub"])
            #expect(transferSubject.wholeMatch(of: /\d{6}\.[0-9a-f]{32}\.\d{4}/) != nil)
            #expect(transferSubject != senderSubject.rawValue)
            let oldExchange = try await RP.refresh(client, refreshToken: oldRefresh, secret: senderSecret)
            #expect(try oldExchange.jsonStrings()["error"] == "invalid_client", "the old team cannot use the app's tokens any more")
            let oldRefreshByRecipient = try await RP.refresh(client, refreshToken: oldRefresh, secret: recipientSecret)
            #expect(try oldRefreshByRecipient.jsonStrings()["error"] == "invalid_grant", "tokens issued to the old team are revoked")

            // Recipient team: the transfer_sub becomes its own sub, with its own relay address.
            let recipientToken = try Self.accessToken(try await Self.migrationToken(client, secret: recipientSecret))
            let migrated = try await Self.migrationInfo(client, bearer: recipientToken, secret: recipientSecret, [("transfer_sub", transferSubject)])
            #expect(migrated.status == .ok)
            let user = try #require(try JSONSerialization.jsonObject(with: Data(buffer: migrated.body)) as? [String: Any])
            #expect(migrated.text.hasPrefix(#"{"sub":"#), "Apple's member order: sub, email, is_private_email")
            let newSubject = try #require(user["sub"] as? String)
            let newRelay = try #require(user["email"] as? String)
            #expect(user["is_private_email"] as? Bool == true)
            #expect(newSubject != senderSubject.rawValue && newSubject != transferSubject)
            #expect(newRelay != senderRelay && newRelay.hasSuffix("@privaterelay.appleid.com"))
            #expect(
                try await server.provider.credentialState(subject: Subject(rawValue: newSubject), clientID: TestServer.bundleID) == .authorized)

            // The migrated user signs in to the recipient's app: no consent again, new sub, transfer_sub, new relay.
            let after = try await RP.authorize(client, RP.Order(responseMode: "form_post", scope: "email"))
            #expect(after["user"] == nil)
            let tokens = try await RP.redeem(client, code: try #require(after["code"]), secret: recipientSecret)
            let claims = try await RP.verify(try #require(Self.member(tokens, "id_token")), client)
            #expect(claims.subject.rawValue == newSubject)
            #expect(claims.transferSubject?.rawValue == transferSubject)
            #expect(claims.email == newRelay)

            // 60 days later the claim and the migration endpoints are gone.
            server.clock.advance(by: AppTransfer.window)
            let late = try await RP.authorize(client, RP.Order(responseMode: "form_post", scope: "email"))
            let lateTokens = try await RP.redeem(
                client, code: try #require(late["code"]), secret: try await Self.recipientSecret(server, key: key))
            let lateClaims = try await RP.verify(try #require(Self.member(lateTokens, "id_token")), client)
            #expect(lateClaims.subject.rawValue == newSubject)
            #expect(lateClaims.transferSubject == nil)
            let closed = try await Self.migrationToken(client, secret: try await Self.recipientSecret(server, key: key))
            #expect(try closed.jsonStrings()["error"] == "unauthorized_client")
        }
    }

    @Test("each team asks only its own question, with its own bearer token")
    func refusals() async throws {
        let (server, _, _) = try await TestServer.authorized()
        try await server.app.test(.router) { client in
            let (key, senderSubject, _) = try await Self.transferred(server, client)
            let senderSecret = try await server.clientSecret()
            let recipientSecret = try await Self.recipientSecret(server, key: key)
            let senderToken = try Self.accessToken(try await Self.migrationToken(client, secret: senderSecret))
            let recipientToken = try Self.accessToken(try await Self.migrationToken(client, secret: recipientSecret))
            let subject = [("sub", senderSubject.rawValue), ("target", "RECIPIENTK")]

            let cases: [(String, TestResponse, String)] = [
                ("no bearer", try await Self.migrationInfo(client, bearer: nil, secret: senderSecret, subject), "invalid_client"),
                (
                    "the other team's bearer", try await Self.migrationInfo(client, bearer: recipientToken, secret: senderSecret, subject),
                    "invalid_client"
                ),
                (
                    "recipient asks with sub", try await Self.migrationInfo(client, bearer: recipientToken, secret: recipientSecret, subject),
                    "invalid_request"
                ),
                (
                    "sender asks with transfer_sub",
                    try await Self.migrationInfo(client, bearer: senderToken, secret: senderSecret, [("transfer_sub", "123456.abc.1234")]),
                    "invalid_request"
                ),
                (
                    "wrong target",
                    try await Self.migrationInfo(
                        client, bearer: senderToken, secret: senderSecret, [("sub", senderSubject.rawValue), ("target", "OTHER12345")]),
                    "invalid_request"
                ),
                (
                    // U+212A KELVIN SIGN: String == calls it "K"; a Team ID is compared byte for byte.
                    "target with a Kelvin sign",
                    try await Self.migrationInfo(
                        client, bearer: senderToken, secret: senderSecret, [("sub", senderSubject.rawValue), ("target", "RECIPIENT\u{212A}")]),
                    "invalid_request"
                ),
                ("neither", try await Self.migrationInfo(client, bearer: senderToken, secret: senderSecret, []), "invalid_request"),
                (
                    "unknown transfer_sub",
                    try await Self.migrationInfo(client, bearer: recipientToken, secret: recipientSecret, [("transfer_sub", "999999.ffff.9999")]),
                    "invalid_request"
                ),
            ]
            for (name, response, error) in cases {
                #expect(try response.jsonStrings()["error"] == error, "\(name): \(response.text)")
            }
            let wrongScope = try await RP.post(
                client, "/auth/token",
                [
                    ("grant_type", "client_credentials"), ("scope", "email"), ("client_id", TestServer.servicesID.rawValue),
                    ("client_secret", senderSecret),
                ])
            #expect(try wrongScope.jsonStrings()["error"] == "invalid_scope")
        }
    }

    @Test("a user who stopped using the app is not migrated; no transfer means no migration token")
    func revokedAndUntransferred() async throws {
        let (server, account, _) = try await TestServer.authorized()
        try await server.app.test(.router) { client in
            let untransferred = try await Self.migrationToken(client, secret: try await server.clientSecret())
            #expect(try untransferred.jsonStrings()["error"] == "unauthorized_client")

            let (_, senderSubject, _) = try await Self.transferred(server, client)
            try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestServer.bundleID)
            let senderSecret = try await server.clientSecret()
            let token = try Self.accessToken(try await Self.migrationToken(client, secret: senderSecret))
            let answer = try await Self.migrationInfo(
                client, bearer: token, secret: senderSecret, [("sub", senderSubject.rawValue), ("target", "RECIPIENTK")])
            #expect(try answer.jsonStrings()["error"] == "invalid_request")
        }
    }
}
