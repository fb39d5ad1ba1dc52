import AppleIDProtocol
import Foundation

extension AppleIDProvider {
    /// Arms `fault` for the next token response to `clientID` (issue 20's fault switch for
    /// `siwa check`). One-shot, one client, never armed by default, and refused unless development
    /// mode is on: a server that may answer a real app wrongly on purpose is a development tool.
    /// Kept in this instance's memory (see ``TokenFaults``).
    public func armTokenFault(_ fault: ArmedTokenFault, for clientID: ClientID) async throws {
        guard configuration.developmentMode else {
            throw ConsoleError.refused("the fault switch works only in development mode (siwa serve --development)")
        }
        guard try await registeredClient(clientID) != nil else { throw ConsoleError.notFound("no client \(clientID)") }
        tokenFaults.arm(fault, for: clientID)
        logger.notice("token fault armed", metadata: ["client_id": "\(clientID)", "fault": "\(fault.fault.rawValue)"])
    }

    /// Removes the fault armed for `clientID`, if any (a check that ended before its token request).
    public func disarmTokenFault(for clientID: ClientID) { tokenFaults.disarm(clientID) }

    /// Takes the client's armed fault for this token response, and answers the faults that replace
    /// the whole answer: an error, or a silence before the genuine answer. Returns the fault left for
    /// the id_token, if any.
    func takeTokenFault(for client: RegisteredClient) async throws -> TokenFault? {
        guard configuration.developmentMode, let armed = tokenFaults.take(for: client.id) else { return nil }
        logger.notice("token fault taken", metadata: ["client_id": "\(client.id)", "fault": "\(armed.fault.rawValue)"])
        switch armed.fault {
        case .invalidGrant:
            throw OAuthError.invalidGrant(AppleErrorDescription.codeExpiredOrRevoked, reason: "the fault switch answered invalid_grant")
        case .serverError:
            throw OAuthError(.serverError, status: 500, reason: "the fault switch answered 500")
        case .timeout:
            // Cancelled with the request when the app gives up, as an app's timeout should make it.
            try await Task.sleep(for: armed.delay)
            return nil
        default:
            return armed.fault
        }
    }
}
