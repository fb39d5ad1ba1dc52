import AppleIDAdminAPI
import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Admin calls for developer teams, their Sign in with Apple keys, and app transfers (spec §17.4).
struct AdminTransferEndpoints {
    let provider: AppleIDProvider

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.post("/teams") { request, context in
            let order = try await request.decode(as: TeamOrder.self, context: context)
            if let id = order.teamID, id.count != 10 || !id.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) {
                throw AdminError.invalidRequest("team_id is 10 upper-case letters and digits")
            }
            guard let kind = TeamKind(rawValue: order.kind ?? TeamKind.organization.rawValue) else {
                throw AdminError.invalidRequest("kind is individual or organization")
            }
            let team = try await provider.registerTeam(
                id: order.teamID.map(TeamID.init(rawValue:)), name: order.name ?? "Team", kind: kind, country: order.country)
            return try AdminEndpoints.json(TeamView(team))
        }
        admin.post("/teams/:team/keys") { request, context in
            let order = try await request.decode(as: KeyOrder.self, context: context)
            let teamID = TeamID(rawValue: try context.parameters.requireDecoded("team"))
            let (key, pem) = try await provider.registerKey(teamID: teamID, primaryAppID: ClientID(rawValue: order.primaryAppID))
            return try AdminEndpoints.json(
                NewKey(keyID: key.id.rawValue, teamID: teamID.rawValue, primaryAppID: order.primaryAppID, privateKeyPEM: pem))
        }
        // Revokes a key as the console's Keys page does: its client secrets are refused from now on.
        admin.post("/keys/:kid/revoke") { _, context in
            let kid = KeyID(rawValue: try context.parameters.requireDecoded("kid"))
            return try await AdminClientEndpoints.answer { _ = try await provider.revokeKey(kid, teamID: nil) }
        }
        admin.post("/transfers") { request, context in
            let order = try await request.decode(as: TransferOrder.self, context: context)
            let transfer = try await provider.transfers.transfer(
                groupID: ClientID(rawValue: order.groupID), to: TeamID(rawValue: order.recipientTeamID))
            return try AdminEndpoints.json(TransferView(transfer))
        }
        admin.get("/transfers") { request, _ in
            guard let groupID = request.uri.queryParameters.get("group_id") else {
                throw AdminError.invalidRequest("group_id is required")
            }
            return try AdminEndpoints.json(
                TransferList(transfers: try await provider.transfers.history(groupID: ClientID(rawValue: groupID)).map(TransferView.init)))
        }
    }
}

extension TransferView {
    init(_ transfer: AppTransfer) {
        self.init(
            id: transfer.id, groupID: transfer.groupID.rawValue, fromTeamID: transfer.fromTeamID.rawValue, toTeamID: transfer.toTeamID.rawValue,
            transferredAt: transfer.transferredAt, windowEndsAt: transfer.windowEndsAt)
    }
}
