import AppleIDProtocol
import Foundation
import Hummingbird
import JWTKit
import NIOCore

extension TutorialApp {
    /// The notification JWT as the tutorial declares it for JWTKit: `exp` checked by `verify`.
    struct NotificationJWT: JWTPayload {
        var iss: String
        var aud: String
        var exp: ExpirationClaim
        var jti: String
        var events: String

        func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
    }

    struct NotificationBody: Decodable { var payload: String }
    struct Event: Decodable {
        var type: String
        var sub: String
    }

    /// `{"payload": jwt}`: verified against /auth/keys (issuer, audience, expiry, each `jti` acted on
    /// once), then `consent-revoked` ends the user's sessions, an account deletion (either spelling) its
    /// account too. `notificationsUnverified` decodes the JWT and trusts it.
    func notification(_ request: Request) async throws -> Response {
        let body = try JSONDecoder().decode(NotificationBody.self, from: Data(buffer: try await request.body.collect(upTo: 65536)))
        let claims: NotificationJWT
        if flaw == .notificationsUnverified {
            claims = try JSONDecoder().decode(NotificationJWT.self, from: Data(try Self.segment(body.payload, 1).utf8))
        } else {
            guard let verified = try? await serverKeys().verify(body.payload, as: NotificationJWT.self), verified.iss == settings.server,
                [settings.clientID, settings.primaryAppID].contains(verified.aud)
            else { return Self.page(.badRequest, "notification refused") }
            // A repeat is acknowledged, not acted on: Apple sends one answered otherwise again.
            guard seenNotifications.withLock({ $0.insert(verified.jti).inserted }) else {
                return flaw == .redeliveryRefused ? Self.page(.badRequest, "notification already received") : Self.page(.ok, "already handled")
            }
            claims = verified
        }
        let event = try JSONDecoder().decode(Event.self, from: Data(claims.events.utf8))
        let deletions = flaw == .deletionSpelledOneWay ? ["account-delete"] : ["account-delete", "account-deleted"]
        if event.type == "consent-revoked" || deletions.contains(event.type) {
            sessions.withLock { sessions in
                for (sid, session) in sessions where session.subject == event.sub { sessions[sid]?.subject = nil }
            }
        }
        if deletions.contains(event.type) { _ = accounts.withLock { $0.removeValue(forKey: event.sub) } }
        return Self.page(.ok, "ok")
    }

    /// Deletes the signed-in user's account: revokes the refresh token first, as Apple asks
    /// (`neverRevokesOnDelete` forgets to).
    func deleteAccount(_ request: Request) async throws -> Response {
        guard let sid = request.cookies["sid"]?.value, let session = sessions.withLock({ $0[sid] }), session.subject != nil else {
            return Self.page(.unauthorized, "sign in first")
        }
        if flaw != .neverRevokesOnDelete, let token = session.refreshToken {
            let answer = try await post("/auth/revoke", ["token": token, "token_type_hint": "refresh_token"])
            guard answer.status == .ok else { return Self.page(.badGateway, "could not revoke") }
        }
        _ = sessions.withLock { $0.removeValue(forKey: sid) }
        // `emailKeptOnDelete` deletes the account but forgets the row of the unique e-mail column.
        _ = session.subject.flatMap { subject in accounts.withLock { $0.removeValue(forKey: subject) } }
        return Response(status: .seeOther, headers: [.location: "/"])
    }
}
