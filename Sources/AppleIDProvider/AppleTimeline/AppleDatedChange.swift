/// One change in Apple's traffic with the day it happened: what `siwa serve --apple-as-of` and the
/// `apple_as_of` quirk turn back. ``timeline`` is the one table; the engine asks an entry whether it
/// was in effect on a day.
///
/// Two variants of spec §19 have no known day and stay plain quirks only: the id_token lifetime
/// (600 s in 2019–2020 captures, 86,400 s "since ~2021", §9.2) and the account-deletion event's
/// spelling (`account-delete` vs `account-deleted`, §19 #1; no capture of the change).
public struct AppleDatedChange: Sendable, Hashable {
    /// The first day of the new behaviour.
    public let date: AppleDate
    /// What changed.
    public let change: String
    /// Apple's behaviour before ``date``, and what this server does as of an earlier day.
    public let before: String
    /// Apple's behaviour since ``date``, and what this server does as of that day or later.
    public let after: String
    /// Where the change was seen: issues, captures, Apple's notes, the spec's section.
    public let sources: [String]

    /// Whether Apple behaved the new way on `day`; without a day (today) it does.
    public func isInEffect(asOf day: AppleDate?) -> Bool {
        guard let day else { return true }
        return day >= date
    }
}

extension AppleDatedChange {
    /// Every dated change, oldest first.
    public static let timeline: [AppleDatedChange] = [.booleanClaims, .accountIssuer, .koreaNotificationEndpoint, .privateICloudRelay]

    /// `email_verified` and `is_private_email` became JSON booleans (spec §9.3).
    public static let booleanClaims = AppleDatedChange(
        date: day(2024, 2, 7), change: "email_verified and is_private_email in id_tokens",
        before: "the strings \"true\" and \"false\" (the booleans_as_strings quirk)", after: "JSON booleans",
        sources: [
            "https://github.com/nicokaiser/passport-apple/pull/86",
            "https://github.com/AzimoLabs/apple-sign-in-php-sdk/issues/39",
            "shared/spec/sign-in-with-apple-protocol.md §9.3",
        ])

    /// The discovery document's `issuer` became `https://account.apple.com` while id_tokens kept
    /// `https://appleid.apple.com`, so relying parties that check `iss` against discovery broke.
    public static let accountIssuer = AppleDatedChange(
        date: day(2025, 6, 11), change: "the issuer of the discovery document",
        before: "the id_tokens' iss",
        after: "https://account.apple.com when the server speaks as Apple (--issuer apple); id_tokens keep https://appleid.apple.com",
        sources: [
            "https://github.com/nextauthjs/next-auth/issues/13047",
            "https://github.com/supabase/auth/issues/2050",
            "https://github.com/ory/kratos/issues/4433",
        ])

    /// Developers based in the Republic of Korea must provide a server-to-server notification endpoint
    /// when they register or update a Services ID (a team's country, ``DeveloperTeam/country``).
    static let koreaNotificationEndpoint = AppleDatedChange(
        date: day(2026, 1, 1), change: "registering or updating a Services ID for a team based in the Republic of Korea",
        before: "no notification endpoint needed",
        after: "refused unless the primary App ID has a server-to-server notification endpoint",
        sources: ["https://developer.apple.com/news/?id=j5j9ep1b (9 October 2025)"])

    /// Apple announced new relay addresses under `private.icloud.com` beside `privaterelay.appleid.com`.
    /// This server makes addresses under one relay domain (`--relay-domain`, by default
    /// privaterelay.appleid.com, valid on either side of the day), so the server's day changes no
    /// traffic; a client whose own `apple_as_of` is since then gets new addresses under
    /// `private.icloud.com` (`siwa check`'s `drift.relay-domain`).
    public static let privateICloudRelay = AppleDatedChange(
        date: day(2026, 6, 16), change: "the domain of new Hide My Email relay addresses",
        before: "privaterelay.appleid.com only",
        after:
            "private.icloud.com as well; this server keeps making addresses under its --relay-domain (privaterelay.appleid.com), but for a client whose own day is since then",
        sources: [
            "https://www.siliconfeed.online/news/apple-hide-my-email-domain-change",
            "shared/spec/sign-in-with-apple-protocol.md §11 and §19 #15",
        ])

    /// A day of this table, written as numbers (the table's test checks each is a real day).
    private static func day(_ year: Int, _ month: Int, _ day: Int) -> AppleDate {
        AppleDate(year: year, month: month, day: day)
    }
}
