import AppleIDAdminAPI
import SignInWithAppleTesting
import Testing

@testable import SiwaCheck

/// `trust.string-booleans` (and so `drift.boolean-claims`) and `drift.issuer-flip` change the client
/// while they sign in, and put it back as it was: no switch is left set that was not (issue 37 review).
@Suite("siwa check: a client changed for a sign-in is put back as it was")
struct ClientDayRestoreTests {
    static func checker(_ apple: AppleIDEmulator) -> AppChecker {
        AppChecker(
            options: CheckOptions(
                start: apple.baseURL, probe: "", server: apple.baseURL, adminToken: apple.adminToken, victim: apple.defaultUser.appleID,
                attacker: apple.defaultUser.appleID), wait: { _ in })
    }

    @Test(
        "strings are asked for by a day unless the switch is set, and the client's own state comes back",
        arguments: [
            (QuirksOrder(), nil, nil, "2024-02-06", nil),
            (QuirksOrder(appleAsOf: "2025-01-01"), nil, "2025-01-01", "2024-02-06", nil),
            (QuirksOrder(booleansAsStrings: false), false, nil, nil, true),
        ] as [(QuirksOrder, Bool?, String?, String?, Bool?)])
    func stringBooleans(before: QuirksOrder, switched: Bool?, day: String?, dayDuring: String?, switchedDuring: Bool?) async throws {
        try await withAppleIDEmulator { apple in
            let checker = Self.checker(apple)
            try await checker.admin.changeQuirks(before, for: apple.servicesID)
            let during = try await checker.withStringBooleans(clientID: apple.servicesID) { try await checker.admin.client(apple.servicesID) }
            #expect(during.appleAsOf == dayDuring && during.booleansAsStrings == switchedDuring)
            let after = try await checker.admin.client(apple.servicesID)
            #expect(after.appleAsOf == day && after.booleansAsStrings == switched)
        }
    }

    @Test("the issuer flip's day is the client's only while the app signs in, also when the sign-in throws")
    func issuerDay() async throws {
        try await withAppleIDEmulator { apple in
            let checker = Self.checker(apple)
            struct Interrupted: Error {}
            await #expect(throws: Interrupted.self) {
                try await checker.withDay(AppChecker.firstDayOfAccountIssuer, clientID: apple.servicesID) { () async throws -> Bool in
                    #expect(try await checker.admin.client(apple.servicesID).appleAsOf == "2025-06-11")
                    throw Interrupted()
                }
            }
            let after = try await checker.admin.client(apple.servicesID)
            #expect(after.appleAsOf == nil && after.booleansAsStrings == nil)
        }
    }
}
