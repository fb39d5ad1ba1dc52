import AppleIDProtocol
import AppleIDProvider
import Foundation

extension AppleIDProvider {
    /// Checks the SPF record of every e-mail source of the team (spec §11: "the table shows whether
    /// each source passed an SPF check") and stores each result with its time. Each domain is looked
    /// up once, all at the same time, so a slow resolver costs one timeout, not one per source.
    public func checkEmailSources(teamID: TeamID) async throws -> [EmailSource] {
        guard try await teamExists(teamID) else { throw ConsoleError.notFound("There is no team \(teamID).") }
        let sourceStore = try emailSourceStore
        let sources = try await sourceStore.emailSources(teamID: teamID)
        let domains = Set(sources.map { SPFCheck.domain(of: $0.value) })
        let resolver = txtResolver
        let statuses = await withTaskGroup(of: (String, EmailSource.Check, TXTLookupError?).self) { group in
            for domain in domains {
                group.addTask {
                    do throws(TXTLookupError) {
                        return (domain, SPFCheck.status(of: try await resolver.txtRecords(of: domain)), nil)
                    } catch {
                        return (domain, .lookupFailed, error)
                    }
                }
            }
            var statuses: [String: EmailSource.Check] = [:]
            for await (domain, status, failure) in group {
                statuses[domain] = status
                // The page says only "Lookup failed"; why (timeout, SERVFAIL, which resolver) is for the operator.
                if let failure { logger.notice("SPF lookup failed", metadata: ["domain": "\(domain)", "reason": "\(failure.reason)"]) }
            }
            return statuses
        }
        let now = clock.now()
        for source in sources {
            let status = statuses[SPFCheck.domain(of: source.value)] ?? .lookupFailed
            try await sourceStore.setCheck(status, checkedAt: now, teamID: teamID, value: source.value)
        }
        logger.info("e-mail sources checked", metadata: ["team_id": "\(teamID)", "sources": "\(sources.count)"])
        return try await sourceStore.emailSources(teamID: teamID)
    }
}
