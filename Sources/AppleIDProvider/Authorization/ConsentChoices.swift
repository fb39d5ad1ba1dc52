import Foundation

/// What the user chose on the consent page of a first authorization.
public struct ConsentChoices: Sendable, Hashable, Codable {
    public var firstName: String
    public var lastName: String
    /// Hide My Email: give the app a relay address instead of the real one.
    public var hideEmail: Bool
    /// Which of the Apple ID's addresses to share when not hiding; `nil` shares the primary one. An
    /// address that is not the account's is ignored.
    public var sharedEmail: String?

    public init(firstName: String, lastName: String, hideEmail: Bool, sharedEmail: String? = nil) {
        self.firstName = firstName
        self.lastName = lastName
        self.hideEmail = hideEmail
        self.sharedEmail = sharedEmail
    }

    /// Headless mode's explicit default (spec'd in the README): the account's own name and its real
    /// address shared. Only the non-interactive paths (`--auto-approve`, the admin API, native
    /// credentials minted by scripts) use it; the consent page never defaults a choice.
    /// The one place the default is decided: the consent page preselects it too
    /// (``InteractionDetails/defaultChoices``). A choice in `overrides` replaces its default.
    public static func headlessDefault(for account: AppleIDAccount, overriding overrides: ConsentOverrides = ConsentOverrides()) -> ConsentChoices {
        ConsentChoices(
            firstName: overrides.firstName ?? account.firstName, lastName: overrides.lastName ?? account.lastName,
            hideEmail: overrides.hideEmail ?? false)
    }

    /// Longest name part kept; the name is free text the user typed (spec §3.3), so it is bounded.
    static let maximumNameLength = 100

    var sanitized: ConsentChoices {
        func clean(_ value: String) -> String {
            let printable = value.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }
            return String(String(String.UnicodeScalarView(printable)).trimmingCharacters(in: .whitespaces).prefix(Self.maximumNameLength))
        }
        return ConsentChoices(firstName: clean(firstName), lastName: clean(lastName), hideEmail: hideEmail, sharedEmail: sharedEmail)
    }
}

/// The choices a headless caller (the admin API, `siwa authorize`) makes explicitly; each one left
/// `nil` takes ``ConsentChoices/headlessDefault(for:overriding:)``'s default.
public struct ConsentOverrides: Sendable, Hashable {
    public var firstName: String?
    public var lastName: String?
    public var hideEmail: Bool?

    public init(firstName: String? = nil, lastName: String? = nil, hideEmail: Bool? = nil) {
        self.firstName = firstName
        self.lastName = lastName
        self.hideEmail = hideEmail
    }
}
