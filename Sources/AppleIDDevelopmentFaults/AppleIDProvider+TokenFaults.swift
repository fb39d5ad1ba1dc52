import AppleIDProtocol
import AppleIDProvider
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
        guard let faults = faultSwitch as? TokenFaults else {
            throw ConsoleError.refused("this server was started without the fault switch")
        }
        guard try await registeredClient(clientID) != nil else { throw ConsoleError.notFound("no client \(clientID)") }
        if fault.fault == .unpublishedKey { try await keyRing.prepareUnpublishedKey() }
        faults.arm(fault, for: clientID)
        logger.notice("token fault armed", metadata: ["client_id": "\(clientID)", "fault": "\(fault.fault.rawValue)"])
    }

    /// Removes the fault armed for `clientID`, if any (a check that ended before its token request).
    public func disarmTokenFault(for clientID: ClientID) { (faultSwitch as? TokenFaults)?.disarm(clientID) }
}
