import AppleIDProtocol
import AppleIDProvider
import Foundation
import Logging
import SQLKit

extension SQLStore {
    /// Seals whatever an earlier version, or a start without a storage key, stored in clear: signing
    /// keys and TOTP secrets. Run at every start, after the migrations.
    func sealPlaintextSecrets(logger: Logger) async throws {
        let keys = try await sealPlaintextSigningKeys()
        if keys > 0 { logger.notice("Sealed signing keys that were stored in clear", metadata: ["count": "\(keys)"]) }
        let secrets = try await sealPlaintextTOTPSecrets()
        if secrets > 0 { logger.notice("Sealed TOTP secrets that were stored in clear", metadata: ["count": "\(secrets)"]) }
        let passwords = try await sealPlaintextKeychainPasswords()
        if passwords > 0 { logger.notice("Sealed keychain passwords that were stored in clear", metadata: ["count": "\(passwords)"]) }
    }
}

extension SQLStore: SigningKeyStore {
    public func signingKeys() async throws -> [SigningKeyRecord] {
        try await db.select().column("*").from(SigningKeyRow.table)
            .orderBy("created_at")
            .orderBy("id")
            .all(decoding: SigningKeyRow.self)
            .map { try $0.record(opening: sealer) }
    }

    public func save(_ key: SigningKeyRecord) async throws {
        try await upsert(try SigningKeyRow(key, sealing: sealer), into: SigningKeyRow.table, key: ["id"])
    }

    /// Seals the keys written before a storage key was given; returns how many. Without a storage
    /// key it does nothing.
    @discardableResult
    public func sealPlaintextSigningKeys() async throws -> Int {
        guard sealer != nil else { return 0 }
        var sealed = 0
        for row in try await db.select().column("*").from(SigningKeyRow.table).all(decoding: SigningKeyRow.self)
        where !SecretSealer.isSealed(row.privateKeyPEM) {
            try await save(try row.record(opening: nil))
            sealed += 1
        }
        return sealed
    }

    /// Seals the TOTP secrets written before sealing covered them (or before a storage key was
    /// given); returns how many. Without a storage key it does nothing.
    @discardableResult
    public func sealPlaintextTOTPSecrets() async throws -> Int {
        guard sealer != nil else { return 0 }
        var sealed = 0
        for row in try await db.select().column("*").from(AccountRow.table).all(decoding: AccountRow.self)
        where !SecretSealer.isSealed(row.totpSecret) {
            try await save(try row.account(opening: nil))
            sealed += 1
        }
        return sealed
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

    init(_ key: SigningKeyRecord, sealing sealer: SecretSealer?) throws {
        id = key.id.rawValue
        privateKeyPEM = try sealer?.seal(key.privateKeyPEM, boundTo: key.id.rawValue) ?? key.privateKeyPEM
        state = key.state.rawValue
        createdAt = key.createdAt.sqlSeconds
        activatedAt = key.activatedAt?.sqlSeconds
        retiredAt = key.retiredAt?.sqlSeconds
    }

    func record(opening sealer: SecretSealer?) throws -> SigningKeyRecord {
        let pem: String
        if let sealer {
            pem = try sealer.open(privateKeyPEM, boundTo: id)
        } else {
            guard !SecretSealer.isSealed(privateKeyPEM) else { throw SealingError.noKey("signing key \(id)") }
            pem = privateKeyPEM
        }
        return SigningKeyRecord(
            id: SigningKeyID(rawValue: id), privateKeyPEM: pem,
            state: try .decoded(state, table: Self.table, column: "state"), createdAt: Date(sqlSeconds: createdAt),
            activatedAt: activatedAt.map(Date.init(sqlSeconds:)), retiredAt: retiredAt.map(Date.init(sqlSeconds:))
        )
    }
}
