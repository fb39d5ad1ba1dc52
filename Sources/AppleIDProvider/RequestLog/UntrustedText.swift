import Foundation

/// Attacker-supplied text quoted in a refusal's reason: at most 60 characters, the cut marked, so
/// that a request naming a client cannot write a long message of its own into the Requests page.
public enum UntrustedText {
    public static let limit = 60

    static func excerpt(_ text: String) -> String {
        guard text.count > limit else { return text }
        return "\(text.prefix(limit))… (truncated from \(text.count) characters)"
    }
}
