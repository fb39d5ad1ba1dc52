/// How much a failed check weighs (issue 37): false alarms make people stop running a tool in CI, so
/// only a flaw that matters fails the run.
public enum CheckClass: String, Sendable, Hashable, Codable, CaseIterable {
    /// An attacker can use the flaw (state, replay, forged or unverified tokens, audience, expiry,
    /// nonce, the form's `user` or `id_token`, unverified notifications), or the app fails on what
    /// Apple documents it sends today. A failure fails the run.
    case required
    /// Defence in depth or Apple's recommendation (`at_hash`, the two `sub`s of a hybrid flow, PKCE,
    /// scopes, a token request without a timeout), and the `drift.*` checks: a change of Apple's traffic,
    /// dated or to come, that the app would not survive. Reported; fails the run only with `--strict`.
    case advice
}
