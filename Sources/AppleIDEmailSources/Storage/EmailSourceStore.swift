import AppleIDProtocol
import AppleIDProvider
import Foundation

/// A team's e-mail sources: the senders its relay addresses take mail from.
public protocol EmailSourceStore: Sendable {
    /// The team's e-mail sources, in the order they were added.
    func emailSources(teamID: TeamID) async throws -> [EmailSource]
    /// Adds the sources unless that would pass `limit` for the team; returns whether they were added.
    func add(_ sources: [EmailSource], limit: Int) async throws -> Bool
    func deleteEmailSource(teamID: TeamID, value: String) async throws
    /// Records the result of a source's SPF check; a source removed meanwhile stays removed.
    func setCheck(_ check: EmailSource.Check, checkedAt: Date, teamID: TeamID, value: String) async throws
    /// Registers (or with `nil` removes) the source's DKIM public key; `false` when there is no such source.
    func setDKIMKey(_ key: String?, teamID: TeamID, value: String) async throws -> Bool
}
