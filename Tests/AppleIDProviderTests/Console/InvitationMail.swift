import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Testing

/// An invitation as the invited person receives it: the link's token read from the mail the engine
/// sent to their address (the inviter never gets it).
struct ReceivedInvitation {
    let invitation: TeamInvitation
    let mailID: String
    let token: String

    /// The token of the first invitation link in `text`.
    static func token(in text: String) -> String? {
        guard let start = text.range(of: "/console/invitations/") else { return nil }
        let token = text[start.upperBound...].prefix { $0.isHexDigit }
        return token.count == 64 ? String(token) : nil
    }
}

extension ProviderHarness {
    /// Invites as the console does, then opens the invitation mail as the invited person would.
    func invite(_ email: String, teamID: TeamID, by inviter: String) async throws -> ReceivedInvitation {
        let relay = self.relay
        let sent = try await provider.inviteTeamMember(
            email: email, teamID: teamID, invitedBy: inviter, linkBase: "https://id.example.com", mail: relay)
        let mail = try #require(try await relay.message(id: sent.mailID))
        let token = try #require(ReceivedInvitation.token(in: mail.body))
        return ReceivedInvitation(invitation: sent.invitation, mailID: sent.mailID, token: token)
    }
}
