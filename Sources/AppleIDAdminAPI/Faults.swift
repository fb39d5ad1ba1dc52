import Foundation

/// `POST /admin/faults`: one defect of the next token response for one client (development mode only).
public struct FaultOrder: Codable, Sendable, Equatable {
    public var clientID: String
    /// A token fault's name, e.g. `expired`, `wrong-aud`, `server-error`, `timeout`.
    public var fault: String
    /// For `timeout`: how long the token endpoint stays silent (default 30 s, at most 600 s).
    public var delaySeconds: Double?

    public init(clientID: String, fault: String, delaySeconds: Double? = nil) {
        self.clientID = clientID
        self.fault = fault
        self.delaySeconds = delaySeconds
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case fault
        case delaySeconds = "delay_seconds"
    }
}

/// `POST /admin/notifications`: a signed `consent-revoked` (or `event`), genuine or with one claim spoiled by `fault`.
public struct NotificationOrder: Codable, Sendable, Equatable {
    public var clientID: String
    public var appleID: String
    /// `consent-revoked` (absent), `account-delete` or `account-deleted`.
    public var event: String?
    /// A notification fault's name, e.g. `wrong-aud` or `expired`; absent: genuine.
    public var fault: String?

    public init(clientID: String, appleID: String, event: String? = nil, fault: String? = nil) {
        self.clientID = clientID
        self.appleID = appleID
        self.event = event
        self.fault = fault
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case appleID = "apple_id"
        case event, fault
    }
}

/// The notification: its JWT ID, and the JWT that goes as `{"payload": …}` to the app.
public struct NotificationView: Codable, Sendable, Equatable {
    public var jti: String
    public var payload: String

    public init(jti: String, payload: String) {
        self.jti = jti
        self.payload = payload
    }
}
