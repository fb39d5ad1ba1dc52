import AppleIDProvider
import Foundation

/// The Apple ID pages' words in each supported locale, read once at start from `Locales/<locale>.json`
/// (a flat object of key → text; `{name}` marks a value filled in per page).
struct PageStrings: Sendable {
    let tables: [String: [String: String]]

    static func load() throws -> PageStrings {
        guard let directory = Bundle.module.url(forResource: "Locales", withExtension: nil) else { throw LoadError.localesMissing }
        var tables: [String: [String: String]] = [:]
        for locale in PageLocale.supported {
            let data = try Data(contentsOf: directory.appendingPathComponent("\(locale).json"))
            tables[locale] = try JSONDecoder().decode([String: String].self, from: data)
        }
        return PageStrings(tables: tables)
    }

    /// Every text of `locale` (English for a key it lacks) with the page's values filled in: what
    /// the templates read as `{{t.key}}`.
    func table(_ locale: String, values: [String: String] = [:]) -> [String: String] {
        let english = tables[PageLocale.english] ?? [:]
        let texts = english.merging(tables[locale] ?? [:]) { _, localized in localized }
        return texts.mapValues { Self.fill($0, values) }
    }

    /// One text; the key itself when no locale has it.
    func text(_ key: String, _ locale: String, values: [String: String] = [:]) -> String {
        Self.fill(tables[locale]?[key] ?? tables[PageLocale.english]?[key] ?? key, values)
    }

    static func fill(_ text: String, _ values: [String: String]) -> String {
        guard text.contains("{") else { return text }
        var result = text
        for (name, value) in values { result = result.replacingOccurrences(of: "{\(name)}", with: value) }
        return result
    }

    /// The engine's messages are English sentences; the known ones are shown in the page's language.
    func translate(message: String, _ locale: String) -> String {
        if let key = Self.engineMessages[message] { return text(key, locale) }
        if let match = message.wholeMatch(of: #/Too many failed attempts with this Apple ID\. Try again in (\d+) minutes?\./#) {
            let minutes = String(match.1)
            return text(minutes == "1" ? "message_locked_one_minute" : "message_locked_minutes", locale, values: ["minutes": minutes])
        }
        return message
    }

    static let engineMessages = [
        "Your Apple ID or password was incorrect.": "message_incorrect_password",
        "Incorrect verification code.": "message_incorrect_code",
        "Choose again what to share with this app.": "message_choose_again",
        "This Apple ID is no longer available. Start signing in again from the app.": "message_apple_id_unavailable",
        "This sign-in has ended. Start signing in again from the app.": "message_sign_in_ended",
        "Too many failed attempts. Start signing in again from the app.": "message_too_many_attempts",
        ManagedSignInUnavailable.message: "message_organization_sign_in_unavailable",
    ]

    enum LoadError: Error {
        case localesMissing
    }
}
