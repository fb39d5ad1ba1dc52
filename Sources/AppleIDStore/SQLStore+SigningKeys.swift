import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: SigningKeyStore {
    public func signingKeys() async throws -> [SigningKeyRecord] {
        try await db.select().column("*").from(SigningKeyRow.table)
            .orderBy("created_at")
            .orderBy("id")
            .all(decoding: SigningKeyRow.self)
            .map { try $0.record() }
    }

    public func save(_ key: SigningKeyRecord) async throws {
        try await upsert(SigningKeyRow(key), into: SigningKeyRow.table, key: ["id"])
    }
}

struct SigningKeyRow: Codable, Sendable {
    static let table = "signing_keys"
    var id: String
    var privateKeyPEM: String
    var state: String
    var createdAt: Double
    var activatedAt: Double?
    var retiredAt: Double?

    enum CodingKeys: String, CodingKey {
        case id, state
        case privateKeyPEM = "private_key_pem"
        case createdAt = "created_at"
        case activatedAt = "activated_at"
        case retiredAt = "retired_at"
    }

    init(_ key: SigningKeyRecord) {
        id = key.id.rawValue
        privateKeyPEM = key.privateKeyPEM
        state = key.state.rawValue
        createdAt = key.createdAt.sqlSeconds
        activatedAt = key.activatedAt?.sqlSeconds
        retiredAt = key.retiredAt?.sqlSeconds
    }

    func record() throws -> SigningKeyRecord {
        SigningKeyRecord(
            id: SigningKeyID(rawValue: id), privateKeyPEM: privateKeyPEM,
            state: try .decoded(state, table: Self.table, column: "state"), createdAt: Date(sqlSeconds: createdAt),
            activatedAt: activatedAt.map(Date.init(sqlSeconds:)), retiredAt: retiredAt.map(Date.init(sqlSeconds:))
        )
    }
}
