import Foundation

/// A password saved in an Apple ID's iCloud Keychain for a website: what the device offers, as an
/// `ASPasswordCredential`, to an app associated with the website's domain (`webcredentials:`).
public struct KeychainPassword: Codable, Sendable, Hashable {
    public var accountID: String
    /// The website's host name, lower-cased (one of an App ID's `webcredentials` domains to be offered).
    public var domain: String
    /// The user name the website knows (often an e-mail address).
    public var user: String
    public var password: String
    public var savedAt: Date

    public init(accountID: String, domain: String, user: String, password: String, savedAt: Date) {
        self.accountID = accountID
        self.domain = domain
        self.user = user
        self.password = password
        self.savedAt = savedAt
    }
}
