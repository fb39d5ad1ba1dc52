import AppleIDProtocol
import Foundation

extension AppleIDProvider {
    /// Transfers a primary App ID's group from the acting team to another (spec §17.4), through the
    /// existing transfer operation.
    public func transfer(groupID: ClientID, from teamID: TeamID, to recipient: TeamID) async throws -> AppTransfer {
        guard let group = try await store.appGroup(groupID), group.teamID == teamID else {
            throw ConsoleError.notFound("\(groupID) is not a primary App ID of this team.")
        }
        do {
            return try await transfers.transfer(groupID: groupID, to: recipient)
        } catch let error as TransferError {
            throw ConsoleError.refused(error.description)
        }
    }

    /// The transfers from and to the team, newest first.
    public func transfers(teamID: TeamID) async throws -> [AppTransfer] { try await store.transfers(involving: teamID) }
}
