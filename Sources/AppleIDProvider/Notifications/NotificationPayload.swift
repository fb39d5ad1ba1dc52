import AppleIDProtocol
import Foundation

/// The claims of a notification JWT in the shape of Apple's traffic (spec §10.3): `iss`, `aud`,
/// `exp` = `iat` + 86,400, `iat`, `jti`, and `events` as a JSON **string**.
struct NotificationPayload: OrderedJSONObject {
    var issuer: String
    var audience: String
    var issuedAt: Int
    var jwtID: String
    var event: NotificationEvent

    var orderedMembers: [(key: String, value: JSONMemberValue)] {
        [
            ("iss", .string(issuer)), ("aud", .string(audience)), ("exp", .integer(issuedAt + 86_400)), ("iat", .integer(issuedAt)),
            ("events", .string(String(decoding: OrderedJSON.encode(EventMembers(event: event)), as: UTF8.self))), ("jti", .string(jwtID)),
        ]
    }

    /// `type, sub, event_time`, then `email, is_private_email` for the e-mail events, as captured.
    struct EventMembers: OrderedJSONObject {
        let event: NotificationEvent
        var orderedMembers: [(key: String, value: JSONMemberValue)] {
            var members: [(key: String, value: JSONMemberValue)] = [
                ("type", .string(event.type.rawValue)), ("sub", .string(event.subject)), ("event_time", .integer(Int(event.eventTime))),
            ]
            if let email = event.email { members.append(("email", .string(email))) }
            if let isPrivate = event.isPrivateEmail {
                members.append(("is_private_email", isPrivate.style == .boolean ? .boolean(isPrivate.value) : .string(String(isPrivate.value))))
            }
            return members
        }
    }
}

extension AppleIDProvider {
    /// The signed notification JWT of an outbox message, as POSTed in `{"payload": …}`.
    public func signedNotification(_ message: OutboxMessage) throws -> String {
        try signedNotification(message, issuedAt: Int(clock.now().timeIntervalSince1970))
    }

    /// `issuedAt` other than now only for ``developmentNotification(appleID:clientID:fault:)``'s expired one.
    package func signedNotification(_ message: OutboxMessage, issuedAt: Int) throws -> String {
        try TokenSigner(keyRing: keyRing).sign(
            NotificationPayload(
                issuer: configuration.issuer, audience: message.audience.rawValue, issuedAt: issuedAt, jwtID: message.id, event: message.event))
    }
}
