/// The seeded state a development server returns to (`POST /admin/reset`, issue 36): a copy of every
/// record as the first start left it, kept beside the live records and written back over them in
/// one step. The signing keys are not part of it: a reset must not change the keys relying parties
/// have cached, so they stay as they are.
public protocol SeedSnapshotStore: Sendable {
    /// Records every record but the signing keys as the seeded state, replacing an earlier one.
    func saveSeedSnapshot() async throws
    /// Whether a seeded state is recorded.
    func hasSeedSnapshot() async throws -> Bool
    /// Replaces every record but the signing keys with the seeded state, all or nothing; records
    /// made since are gone. False (and nothing changed) when no seeded state is recorded.
    func restoreSeedSnapshot() async throws -> Bool
}
