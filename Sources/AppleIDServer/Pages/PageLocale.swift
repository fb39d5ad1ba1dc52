import Foundation
import Hummingbird

/// The language of the Apple ID pages: a `locale` query parameter, else the `locale` a page's form
/// carried (so the POSTs of one sign-in keep the language of its first page), else the best match
/// in `Accept-Language` (q-values), else English.
enum PageLocale {
    static let english = "en"
    /// The locales with a strings file in `Locales/` (each file's `text_direction` says how its pages are laid out).
    static let supported = ["en", "vi", "th", "zh-Hans", "zh-Hant", "cs", "de", "fr", "es", "ja", "ko", "pt-BR", "ar", "he"]

    static func choose(for request: Request, formLocale: String? = nil) -> String {
        if let query = request.uri.queryParameters["locale"].map(String.init), let locale = supportedLocale(for: query) { return locale }
        if let formLocale, let locale = supportedLocale(for: formLocale) { return locale }
        return negotiate(acceptLanguage: request.headers[.acceptLanguage] ?? "")
    }

    /// The supported locale the header prefers most (ties keep the header's order); English when none.
    static func negotiate(acceptLanguage: String) -> String {
        let ranges = acceptLanguage.split(separator: ",").enumerated().compactMap {
            position, item -> (tag: String, quality: Double, position: Int)? in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, !tag.isEmpty else { return nil }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            return quality > 0 ? (tag, quality, position) : nil
        }
        let ordered = ranges.sorted { $0.quality != $1.quality ? $0.quality > $1.quality : $0.position < $1.position }
        return ordered.lazy.compactMap { supportedLocale(for: $0.tag) }.first ?? english
    }

    /// `zh-CN`, `zh-SG` and `zh-Hans-*` are Simplified Chinese; `zh-TW`, `zh-HK`, `zh-MO` and
    /// `zh-Hant-*` Traditional; other tags by their language (`cs-CZ` is `cs`, `es-MX` is `es`).
    static func supportedLocale(for tag: String) -> String? {
        let subtags = tag.replacingOccurrences(of: "_", with: "-").lowercased().split(separator: "-").map(String.init)
        guard let language = subtags.first else { return nil }
        if language == "zh" {
            let rest = Set(subtags.dropFirst())
            if rest.contains("hant") || !rest.isDisjoint(with: ["tw", "hk", "mo"]) { return "zh-Hant" }
            return "zh-Hans"
        }
        if let locale = localeOfLanguage[language] { return locale }
        return supported.first { $0 == language }
    }

    /// Languages whose one locale carries a region or another name: Brazilian Portuguese is the only
    /// Portuguese (as on Apple's pages, `pt` and `pt-PT` read it too), and `iw` is Hebrew's withdrawn code.
    private static let localeOfLanguage = ["pt": "pt-BR", "iw": "he"]
}
