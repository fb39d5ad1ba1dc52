import AppleIDAdminAPI

extension AppChecker {
    /// The last day before `email_verified` and `is_private_email` turned into booleans (2024-02-07 in
    /// the server's table of dated changes, `AppleDatedChange.booleanClaims`).
    static let lastDayOfStringBooleans = "2024-02-06"
    /// The day the discovery document's issuer became `https://account.apple.com` (`AppleDatedChange.accountIssuer`).
    static let firstDayOfAccountIssuer = "2025-06-11"

    /// Runs `body` while the client's tokens carry `email_verified` and `is_private_email` as strings,
    /// then puts the client back as it was. A client whose `booleans_as_strings` switch is set (it wins
    /// over a day) has the switch turned on and back to its value; any other speaks as the day before
    /// the change and gets its own day back (none: cleared), so no switch is left set that was not.
    func withStringBooleans<Result: Sendable>(clientID: String, _ body: () async throws -> Result) async throws -> Result {
        let before = try await admin.client(clientID)
        if let switched = before.booleansAsStrings {
            return try await with(QuirksOrder(booleansAsStrings: true), restoring: QuirksOrder(booleansAsStrings: switched), clientID, body)
        }
        return try await withDay(Self.lastDayOfStringBooleans, clientID: clientID, before: before, body)
    }

    /// Runs `body` while the client speaks as Apple did on `day`, then gives it its own day back.
    func withDay<Result: Sendable>(
        _ day: String, clientID: String, before: ClientView? = nil, _ body: () async throws -> Result
    ) async throws -> Result {
        let view: ClientView
        if let before { view = before } else { view = try await admin.client(clientID) }
        return try await with(QuirksOrder(appleAsOf: day), restoring: QuirksOrder(appleAsOf: view.appleAsOf ?? ""), clientID, body)
    }

    private func with<Result: Sendable>(
        _ change: QuirksOrder, restoring: QuirksOrder, _ clientID: String, _ body: () async throws -> Result
    ) async throws -> Result {
        try await admin.changeQuirks(change, for: clientID)
        let result: Result
        do {
            result = try await body()
        } catch {
            try? await admin.changeQuirks(restoring, for: clientID)
            throw error
        }
        try await admin.changeQuirks(restoring, for: clientID)
        return result
    }
}
