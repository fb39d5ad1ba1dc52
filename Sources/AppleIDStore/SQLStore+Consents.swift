import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: ConsentStore {
    public func consent(accountID: String, groupID: ClientID) async throws -> Consent? {
        try await prepared.select().column("*").from(ConsentRow.table)
            .where("account_id", .equal, accountID)
            .where("group_id", .equal, groupID.rawValue)
            .first(decoding: ConsentRow.self)?
            .consent()
    }

    public func save(_ consent: Consent) async throws {
        try await upsert(try ConsentRow(consent), into: ConsentRow.table, key: ConsentRow.key)
    }

    public func deleteConsent(accountID: String, groupID: ClientID) async throws {
        try await db.delete(from: ConsentRow.table)
            .where("account_id", .equal, accountID)
            .where("group_id", .equal, groupID.rawValue)
            .run()
    }
}

struct ConsentRow: Codable, Sendable {
    static let table = "consents"
    static let key = ["account_id", "group_id"]
    var accountID: String
    var groupID: String
    var grantedAt: Double
    /// JSON array of scope strings.
    var scopes: String
    var email: String?
    var isPrivateEmail: Bool

    enum CodingKeys: String, CodingKey {
        case scopes, email
        case accountID = "account_id"
        case groupID = "group_id"
        case grantedAt = "granted_at"
        case isPrivateEmail = "is_private_email"
    }

    init(_ consent: Consent) throws {
        accountID = consent.accountID
        groupID = consent.groupID.rawValue
        grantedAt = consent.grantedAt.sqlSeconds
        scopes = try JSONColumn.encode(consent.scopes)
        email = consent.email
        isPrivateEmail = consent.isPrivateEmail
    }

    func consent() throws -> Consent {
        Consent(
            accountID: accountID, groupID: ClientID(rawValue: groupID), grantedAt: Date(sqlSeconds: grantedAt),
            scopes: try JSONColumn.decode([Scope].self, from: scopes), email: email, isPrivateEmail: isPrivateEmail
        )
    }
}
