import AppleIDProtocol
import AppleIDProvider
import Foundation

/// What applying a declaration did, one line each, for the start-up log.
public struct DeclarationReport: Sendable, Hashable {
    public var created: [String] = []
    public var updated: [String] = []
    /// In the store but not in the file: kept, unless pruned.
    public var notInFile: [String] = []
    public var removed: [String] = []
    /// Declared values the store cannot take any more (a `sub` already used in tokens).
    public var kept: [String] = []
    /// Keys generated now (no `.p8` declared): the private key exists only here, for the caller to keep.
    public var generatedKeys: [KeyID: String] = [:]
    /// Passwords made now, by login, for Apple IDs, Managed Apple IDs and developers the file left
    /// without one outside development mode: random, shown once for the caller to keep (demo.json).
    public var generatedPasswords: [String: String] = [:]

    public init() {}

    /// Whether the store already was as the file says.
    public var changedNothing: Bool { created.isEmpty && updated.isEmpty && removed.isEmpty }
}
