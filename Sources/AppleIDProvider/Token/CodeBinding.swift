import AppleIDProtocol
import Foundation

/// What a token request presents for an authorization code: the authenticated client, the
/// `redirect_uri` and the S256 challenge of its `code_verifier` (spec §4.1, RFC 7636 §4.6). A code
/// is redeemable only when all three equal what it was issued with, byte for byte; absent on both
/// sides counts as equal.
public struct CodeBinding: Sendable, Hashable {
    public var clientID: ClientID
    public var redirectURI: String?
    /// `BASE64URL(SHA256(code_verifier))`, or `nil` when the request sent no verifier.
    public var codeChallenge: String?

    public init(clientID: ClientID, redirectURI: String?, codeChallenge: String?) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
    }

    /// Whether `code` was issued with exactly this client, redirect URI and challenge.
    public func matches(_ code: AuthorizationCodeRecord) -> Bool {
        WireMatch.exact(code.clientID.rawValue, clientID.rawValue) && WireMatch.exact(code.redirectURI, redirectURI)
            && WireMatch.exact(code.codeChallenge, codeChallenge)
    }
}

/// A code consumed by ``GrantStore/redeemCode(hash:binding:at:validAt:issuing:)``, with the grant it was
/// issued under (live when the code was consumed).
public struct RedeemedCode: Sendable, Hashable {
    public var code: AuthorizationCodeRecord
    public var grant: Grant

    public init(code: AuthorizationCodeRecord, grant: Grant) {
        self.code = code
        self.grant = grant
    }
}
