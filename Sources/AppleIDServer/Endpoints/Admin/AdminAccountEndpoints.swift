import AppleIDAdminAPI
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Admin calls for Apple IDs and the server's clock.
struct AdminAccountEndpoints {
    let provider: AppleIDProvider

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/users") { _, _ in
            let views = try await provider.accountListings().map { listing in
                var view = view(listing.account)
                view.subjects = listing.identities.map { AccountView.TeamSubject(teamID: $0.teamID.rawValue, sub: $0.subject.rawValue) }
                return view
            }
            return try AdminEndpoints.json(AccountList(users: views))
        }
        admin.post("/users") { request, context in
            let order = try await request.decode(as: AccountOrder.self, context: context)
            guard let appleID = order.appleID, !appleID.isEmpty else { throw AdminError.invalidRequest("apple_id is required") }
            guard appleID.contains("@") else {
                throw AdminError.invalidRequest("apple_id \(appleID) is not an e-mail address; an Apple ID is one, e.g. sam@example.com")
            }
            guard let password = order.password, !password.isEmpty else { throw AdminError.invalidRequest("password is required") }
            if let refusal = order.refusal { throw refusal }
            let account = try await provider.createAccount(
                appleID: appleID, password: password, firstName: order.firstName ?? "", lastName: order.lastName ?? "", email: order.email,
                realUserStatus: RealUserStatus(rawValue: order.realUserStatus ?? 2) ?? .likelyReal,
                twoFactorEnabled: order.twoFactorEnabled ?? true, additionalEmails: order.additionalEmails ?? [])
            return try AdminEndpoints.json(view(account))
        }
        admin.patch("/users/:appleID") { request, context in
            let order = try await request.decode(as: AccountOrder.self, context: context)
            let appleID = try context.parameters.requireDecoded("appleID")
            if let refusal = order.refusal { throw refusal }
            let change = AccountChange(
                firstName: order.firstName, lastName: order.lastName, email: order.email,
                realUserStatus: order.realUserStatus.flatMap(RealUserStatus.init(rawValue:)), twoFactorEnabled: order.twoFactorEnabled,
                additionalEmails: order.additionalEmails, password: order.password)
            guard let account = try await provider.updateAccount(appleID: appleID, change) else {
                throw AdminError.notFound("no Apple ID \(appleID)")
            }
            return try AdminEndpoints.json(view(account))
        }
        admin.post("/clock/advance") { request, context in
            let advance = try await request.decode(as: ClockAdvance.self, context: context)
            // Bounded: a later `Int(now.timeIntervalSince1970)` must not trap on a date past Int's range.
            // Negative goes back (`siwa clock advance -10s`): a token issued "in the future" is a test too.
            guard advance.seconds != 0, abs(advance.seconds) <= AdminEndpoints.longestClockAdvance else {
                throw AdminError.invalidRequest(
                    "seconds must be other than 0 and at most \(Int(AdminEndpoints.longestClockAdvance)) (100 years) either way")
            }
            return try clockChange { $0.advance(by: advance.seconds) }
        }
        admin.get("/clock") { _, _ in
            guard let clock = provider.clock as? any AdjustableClock else { throw Self.fixedClock }
            return try AdminEndpoints.json(ClockView(clock))
        }
        admin.post("/clock/reset") { _, _ in try clockChange { $0.reset() } }
        admin.post("/clock/set") { request, context in
            let order = try await request.decode(as: ClockSetting.self, context: context)
            guard let date = ISO8601DateFormatter().date(from: order.time),
                abs(date.timeIntervalSinceNow) <= AdminEndpoints.longestClockAdvance
            else {
                throw AdminError.invalidRequest("time is an ISO 8601 date and time within 100 years, e.g. 2026-12-01T09:00:00Z")
            }
            return try clockChange { $0.set(date) }
        }
    }

    static let fixedClock = AdminError.invalidRequest("this server's clock cannot be moved")

    /// Applies a change to the clock, logs it (a shifted clock breaks every relying party's token
    /// checks, so the log says how to undo it) and answers the clock's state.
    private func clockChange(_ change: (any AdjustableClock) -> Void) throws -> Response {
        guard let clock = provider.clock as? any AdjustableClock else { throw Self.fixedClock }
        change(clock)
        let view = ClockView(clock)
        provider.logger.notice(
            "clock changed", metadata: ["now": "\(view.now)", "offset_seconds": "\(view.offsetSeconds)", "undo": "siwa clock reset"])
        return try AdminEndpoints.json(view)
    }

    private func view(_ account: AppleIDAccount) -> AccountView {
        AccountView(
            appleID: account.appleID, firstName: account.firstName, lastName: account.lastName, email: account.email,
            additionalEmails: account.additionalEmails, realUserStatus: account.realUserStatus.rawValue, deleted: account.deletedAt != nil,
            twoFactorEnabled: account.twoFactorEnabled,
            currentSecondFactorCode: account.twoFactorEnabled ? provider.currentSecondFactorCode(for: account) : nil)
    }
}

extension AccountOrder {
    /// Why the fields given are refused (the same rules for creating and changing), if they are.
    var refusal: AdminError? {
        if let status = realUserStatus, RealUserStatus(rawValue: status) == nil { return .invalidRequest("real_user_status is 0, 1 or 2") }
        if let addresses = additionalEmails, !addresses.allSatisfy({ $0.contains("@") }) {
            return .invalidRequest("additional_emails are e-mail addresses")
        }
        return nil
    }
}

extension ClockView {
    init(_ clock: any AdjustableClock) {
        let offsetSeconds = Int(clock.offset.rounded())
        self.init(now: ISO8601DateFormatter().string(from: clock.now()), offsetSeconds: offsetSeconds, shifted: offsetSeconds != 0)
    }
}
