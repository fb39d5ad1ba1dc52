import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

@testable import AppleIDServer

@Suite("Apple ID pages in the user's language")
struct PageLocalizationTests {
    static let strings = try! PageStrings.load()

    @Test("every locale file has exactly the keys of en.json, each with the same {placeholders}")
    func keySets() throws {
        let english = try #require(Self.strings.tables["en"])
        for locale in PageLocale.supported {
            let table = try #require(Self.strings.tables[locale], "\(locale).json")
            #expect(Set(table.keys) == Set(english.keys), "\(locale).json")
            #expect(try Self.keyOrder(locale) == Self.keyOrder("en"), "\(locale).json keeps en.json's key order")
            for (key, text) in english {
                #expect(Self.placeholders(table[key] ?? "") == Self.placeholders(text), "\(locale).json: \(key)")
            }
        }
    }

    /// Names that stay English on Apple's pages in every language; any other value equal to en.json's is untranslated.
    static let staysEnglish: Set<String> = ["Apple ID", "Sign in with Apple", "Services ID", "Bundle ID", "App ID", "DKIM"]
    /// Words that are spelled as in English in a locale's own language.
    static let sameWordInLocale: [String: Set<String>] = [
        "vi": ["Email"], "fr": ["Description", "Source", "Actions", "Services"], "de": ["Name", "Team", "Account", "Relay"],
    ]

    @Test("no locale leaves a value in English, other than the names that stay English")
    func noValueLeftInEnglish() throws {
        let english = try #require(Self.strings.tables["en"])
        for locale in PageLocale.supported where locale != PageLocale.english {
            let table = try #require(Self.strings.tables[locale])
            let allowed = Self.staysEnglish.union(Self.sameWordInLocale[locale] ?? [])
            for (key, text) in english.sorted(by: { $0.key < $1.key }) where key != "text_direction" && table[key] == text {
                #expect(allowed.contains(text), "\(locale).json: \(key) is still English: “\(text)”")
            }
        }
    }

    @Test("Arabic and Hebrew are written right to left, every other language left to right")
    func textDirection() throws {
        for locale in PageLocale.supported {
            let expected = ["ar", "he"].contains(locale) ? "rtl" : "ltr"
            #expect(Self.strings.tables[locale]?["text_direction"] == expected, "\(locale).json")
        }
    }

    @Test("every t.key a template reads is in en.json")
    func templateKeys() throws {
        let templates = Fixtures.packageRoot
            .appendingPathComponent("Sources/AppleIDServer/Templates")
        let english = try #require(Self.strings.tables["en"])
        var used: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: templates.path) where file.hasSuffix(".mustache") {
            let text = try String(contentsOf: templates.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: #/\{\{[#^/]?t\.([a-z_]+)\}\}/#) { used.insert(String(match.1)) }
        }
        #expect(used.count > 30)
        #expect(used.subtracting(english.keys).isEmpty, "keys missing from en.json: \(used.subtracting(english.keys).sorted())")
    }

    @Test("every Apple ID page in every locale: its language, no placeholder left, no English left untranslated")
    func everyPageEveryLocale() async throws {
        let english = try #require(Self.strings.tables["en"])
        for locale in PageLocale.supported {
            let server = try await TestServer.make()
            let table = try #require(Self.strings.tables[locale])
            let filled = Self.strings.table(locale, values: ["app": "Juice", "apple_id": TestServer.maria.appleID])
            // English sentences that this locale words differently must not appear on its pages.
            let untranslated = english.filter { table[$0.key] != $0.value }.values.flatMap(Self.fragments)
            try await server.app.test(.router) { client in
                let pages = try await ApplePages.all(locale: locale, server: server, client: client)
                #expect(pages.count == 13)
                for page in pages {
                    let text = ApplePages.visibleText(page.html)
                    let direction = try #require(table["text_direction"])
                    #expect(page.html.contains("<html lang=\"\(locale)\" dir=\"\(direction)\">"), "\(locale) \(page.name)")
                    #expect(text.firstMatch(of: #/\{[a-z_]+\}/#) == nil, "\(locale) \(page.name): a placeholder is left")
                    for fragment in untranslated {
                        #expect(!Self.containsWords(fragment, in: text), "\(locale) \(page.name): untranslated “\(fragment)”")
                    }
                }
                let headings = [
                    ("sign-in", "sign_in_heading"), ("two-factor", "two_factor_heading"), ("consent", "consent_heading"),
                    ("continue", "confirm_heading"), ("continue", "confirm_prompt"), ("account sign-in", "account_sign_in_heading"),
                    ("account", "apps_heading"),
                    ("sign-in, wrong password", "message_incorrect_password"), ("two-factor, wrong code", "message_incorrect_code"),
                    ("expired", "message_expired"), ("account, forwarding off", "message_forwarding_off"),
                ]
                for (name, key) in headings {
                    let page = try #require(pages.first { $0.name == name })
                    #expect(ApplePages.visibleText(page.html).contains(try #require(filled[key])), "\(locale) \(name): \(key)")
                }
            }
        }
    }

    @Test("Accept-Language picks the page's language by q-value; ?locale= overrides it; an unknown language is English")
    func negotiation() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            browser.acceptLanguage = "cs-CZ,cs;q=0.9,en;q=0.8"
            #expect(try await browser.get("/account").text.contains("<h1 class=\"centered\">Správa Apple ID</h1>"))
            #expect(try await browser.get("/account?locale=th").text.contains("<h1 class=\"centered\">จัดการ Apple ID ของคุณ</h1>"))
            browser.acceptLanguage = "ru-RU,ru;q=0.9"
            #expect(try await browser.get("/account").text.contains("<h1 class=\"centered\">Manage your Apple ID</h1>"))
            browser.acceptLanguage = "de-DE,de;q=0.9"
            #expect(try await browser.get("/account").text.contains("<h1 class=\"centered\">Apple-ID verwalten</h1>"))
            browser.acceptLanguage = "ru;q=0.9, vi;q=0.4, en;q=0.3"
            let signIn = try await browser.get(WebFlowTests.authorizeURI())
            #expect(signIn.text.contains("<h1>Đăng nhập bằng ID Apple</h1>"))
            #expect(HTML.hiddenInputs(signIn.text)["locale"] == "vi")
        }
        #expect(PageLocale.negotiate(acceptLanguage: "en;q=0.5, th") == "th")
        #expect(PageLocale.negotiate(acceptLanguage: "zh-TW,zh;q=0.9") == "zh-Hant")
        #expect(PageLocale.negotiate(acceptLanguage: "zh-HK") == "zh-Hant")
        #expect(PageLocale.negotiate(acceptLanguage: "zh-CN,en;q=0.1") == "zh-Hans")
        #expect(PageLocale.negotiate(acceptLanguage: "zh-Hant-TW") == "zh-Hant")
        #expect(PageLocale.negotiate(acceptLanguage: "cs;q=0, th;q=0.2") == "th")
        #expect(PageLocale.negotiate(acceptLanguage: "") == "en")
        #expect(PageLocale.negotiate(acceptLanguage: "xx-YY") == "en")
    }

    @Test(
        "each Accept-Language tag finds its locale: by language, Portuguese is Brazilian, iw is Hebrew",
        arguments: [
            ("de-AT", "de"), ("fr-CA", "fr"), ("es-MX", "es"), ("es-419", "es"), ("ja-JP", "ja"), ("ko-KR", "ko"),
            ("pt", "pt-BR"), ("pt-PT", "pt-BR"), ("pt-BR", "pt-BR"), ("pt_BR", "pt-BR"), ("ar-EG", "ar"), ("ar", "ar"),
            ("he-IL", "he"), ("iw", "he"), ("iw-IL", "he"), ("ru", "en"), ("cs-CZ", "cs"),
        ])
    func matching(tag: String, locale: String) {
        #expect(PageLocale.negotiate(acceptLanguage: tag) == locale)
        #expect(PageLocale.negotiate(acceptLanguage: "ru, \(tag);q=0.8, en;q=0.5") == locale)
    }

    @Test("the POSTs of one sign-in keep the language of its first page, whatever the browser's Accept-Language")
    func localePersists() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            browser.acceptLanguage = "en"
            let signIn = try await browser.get(WebFlowTests.authorizeURI() + "&locale=zh-TW")
            #expect(signIn.text.contains("<h1>使用 Apple ID 登入</h1>"))
            let hidden = HTML.hiddenInputs(signIn.text)
            #expect(hidden["locale"] == "zh-Hant")
            let twoFactor = try await browser.post(
                try #require(HTML.formAction(signIn.text)),
                form: [
                    ("csrf", hidden["csrf"] ?? ""), ("locale", hidden["locale"] ?? ""), ("action", "sign-in"), ("apple_id", TestServer.maria.appleID),
                    ("password", TestServer.maria.password),
                ])
            #expect(twoFactor.text.contains("<h1>雙重認證</h1>"))
        }
    }

    @Test("the engine's English messages are shown in the page's language, the lock's minutes included")
    func engineMessages() {
        #expect(Self.strings.translate(message: "Your Apple ID or password was incorrect.", "cs") == "Apple ID nebo heslo není správné.")
        #expect(
            Self.strings.translate(message: "Too many failed attempts with this Apple ID. Try again in 15 minutes.", "vi")
                == "Quá nhiều lần thử không thành công với ID Apple này. Hãy thử lại sau 15 phút.")
        #expect(
            Self.strings.translate(message: "Too many failed attempts with this Apple ID. Try again in 1 minute.", "cs")
                == "Příliš mnoho neúspěšných pokusů s tímto Apple ID. Zkuste to znovu za minutu.")
        #expect(Self.strings.translate(message: "Something new.", "th") == "Something new.")
    }

    /// The keys of a locale file in the order the file lists them.
    static func keyOrder(_ locale: String) throws -> [String] {
        let locales = Fixtures.packageRoot
            .appendingPathComponent("Sources/AppleIDServer/Locales")
        let text = try String(contentsOf: locales.appendingPathComponent("\(locale).json"), encoding: .utf8)
        return text.matches(of: #/(?m)^\s*"([a-z_]+)"\s*:/#).map { String($0.1) }
    }

    /// Whether `fragment` appears in `text` as words of its own (“Cancel” is not in “Cancelar”, nor “Transfer” in “Transfert”).
    static func containsWords(_ fragment: String, in text: String) -> Bool {
        text.ranges(of: fragment).contains { range in
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            return !(before?.isLetter ?? false) && !(after?.isLetter ?? false)
        }
    }

    static func placeholders(_ text: String) -> Set<String> {
        Set(text.matches(of: #/\{[a-z_]+\}/#).map { String($0.0) })
    }

    /// The parts of an English text between its placeholders that are long enough to be telling.
    static func fragments(_ text: String) -> [String] {
        text.split(separator: #/\{[a-z_]+\}/#).map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.count >= 6 }
    }
}
