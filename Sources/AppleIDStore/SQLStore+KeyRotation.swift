import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

/// Thrown inside a rotation's transaction to roll back its first write.
private struct RotationLost: Error {}

extension SQLStore: SigningKeyRotationStore {
    /// The unique index `signing_keys_one_per_state` turns a second active or next key into a
    /// conflict, which is ignored.
    public func insertSigningKeyIfAbsent(_ key: SigningKeyRecord) async throws -> Bool {
        let row = try SigningKeyRow(key, sealing: sealer)
        let inserted = try await db.insert(into: SigningKeyRow.table)
            .model(row, with: Self.rowEncoder)
            .ignoringConflicts()
            .returning("id")
            .all()
        return !inserted.isEmpty
    }

    /// Each step is an `UPDATE … WHERE state = …`: a second instance's transaction waits for the
    /// first one's row lock (PostgreSQL) or for the write lock (SQLite), then finds the key retired
    /// and changes nothing.
    public func rotateSigningKeys(_ rotation: SigningKeyRotation) async throws -> Bool {
        var fresh = rotation.publishing
        fresh.state = .next
        let row = try SigningKeyRow(fresh, sealing: sealer)
        do {
            try await transaction { db in
                try await Self.move(rotation.retiring, from: .active, to: .retired, stamp: "retired_at", at: rotation.date, on: db)
                try await Self.move(rotation.promoting, from: .next, to: .active, stamp: "activated_at", at: rotation.date, on: db)
                try await db.insert(into: SigningKeyRow.table).model(row, with: Self.rowEncoder).run()
            }
            return true
        } catch is RotationLost {
            return false
        }
    }

    private static func move(
        _ id: SigningKeyID, from old: SigningKeyRecord.State, to new: SigningKeyRecord.State, stamp column: String, at date: Date,
        on db: any SQLDatabase
    ) async throws {
        let moved = try await db.update(SigningKeyRow.table)
            .set("state", to: new.rawValue)
            .set(column, to: date.sqlSeconds)
            .where("id", .equal, id.rawValue)
            .where("state", .equal, old.rawValue)
            .returning("id")
            .all()
        guard !moved.isEmpty else { throw RotationLost() }
    }
}
