/// One of the 37 locales of Apple's button images and JS script path (spec §14.2), with the three
/// button titles translated. Apple does not publish its strings (spec §16); these are ours.
public struct ButtonLocale: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    /// `nil` unless `rawValue` is one of spec §14.2's codes (exact spelling, e.g. `iw_IL`, `vi_VI`).
    public init?(rawValue: String) {
        guard Self.titles[rawValue] != nil else { return nil }
        self.rawValue = rawValue
    }

    public static let enUS = ButtonLocale(known: "en_US")
    /// Every locale, in the order of spec §14.2.
    public static let all: [ButtonLocale] = identifiers.map(ButtonLocale.init(known:))

    public var description: String { rawValue }

    /// Arabic and Hebrew are written right to left.
    public var isRightToLeft: Bool { rawValue == "ar_SA" || rawValue == "iw_IL" }

    /// The title in this locale.
    public func text(_ title: ButtonSpec.Title) -> String {
        let titles = Self.titles[rawValue] ?? Self.titles["en_US"]!  // every instance is checked at init
        switch title {
        case .signIn: return titles.signIn
        case .continue: return titles.continue
        case .signUp: return titles.signUp
        }
    }

    private init(known rawValue: String) { self.rawValue = rawValue }

    private struct Titles {
        let signIn: String
        let `continue`: String
        let signUp: String
        init(_ signIn: String, _ continueTitle: String, _ signUp: String) {
            self.signIn = signIn
            self.continue = continueTitle
            self.signUp = signUp
        }
    }

    private static let identifiers = [
        "ar_SA", "ca_ES", "cs_CZ", "da_DK", "de_DE", "el_GR", "en_GB", "en_US", "es_ES", "es_MX", "fi_FI", "fr_CA", "fr_FR",
        "hr_HR", "hu_HU", "id_ID", "it_IT", "iw_IL", "ja_JP", "ko_KR", "ms_MY", "nl_NL", "no_NO", "pl_PL", "pt_BR", "pt_PT",
        "ro_RO", "ru_RU", "sk_SK", "sv_SE", "th_TH", "tr_TR", "uk_UA", "vi_VI", "zh_CN", "zh_HK", "zh_TW",
    ]

    private static let english = Titles("Sign in with Apple", "Continue with Apple", "Sign up with Apple")
    private static let spanish = Titles("Iniciar sesión con Apple", "Continuar con Apple", "Registrarse con Apple")
    private static let french = Titles("Se connecter avec Apple", "Continuer avec Apple", "S’inscrire avec Apple")
    private static let traditionalChinese = Titles("使用 Apple 登入", "使用 Apple 繼續", "使用 Apple 註冊")

    private static let titles: [String: Titles] = [
        "ar_SA": Titles("تسجيل الدخول باستخدام Apple", "المتابعة باستخدام Apple", "الاشتراك باستخدام Apple"),
        "ca_ES": Titles("Inicia sessió amb Apple", "Continua amb Apple", "Registra’t amb Apple"),
        "cs_CZ": Titles("Přihlásit se přes Apple", "Pokračovat přes Apple", "Zaregistrovat se přes Apple"),
        "da_DK": Titles("Log ind med Apple", "Fortsæt med Apple", "Tilmeld dig med Apple"),
        "de_DE": Titles("Mit Apple anmelden", "Weiter mit Apple", "Mit Apple registrieren"),
        "el_GR": Titles("Σύνδεση μέσω Apple", "Συνέχεια μέσω Apple", "Εγγραφή μέσω Apple"),
        "en_GB": english,
        "en_US": english,
        "es_ES": spanish,
        "es_MX": spanish,
        "fi_FI": Titles("Kirjaudu Applella", "Jatka Applella", "Rekisteröidy Applella"),
        "fr_CA": french,
        "fr_FR": french,
        "hr_HR": Titles("Prijava putem Applea", "Nastavi putem Applea", "Registracija putem Applea"),
        "hu_HU": Titles("Bejelentkezés az Apple-lel", "Folytatás az Apple-lel", "Regisztráció az Apple-lel"),
        "id_ID": Titles("Masuk dengan Apple", "Lanjutkan dengan Apple", "Daftar dengan Apple"),
        "it_IT": Titles("Accedi con Apple", "Continua con Apple", "Iscriviti con Apple"),
        "iw_IL": Titles("התחברות עם Apple", "המשך עם Apple", "הרשמה עם Apple"),
        "ja_JP": Titles("Appleでサインイン", "Appleで続ける", "Appleでサインアップ"),
        "ko_KR": Titles("Apple로 로그인", "Apple로 계속하기", "Apple로 등록"),
        "ms_MY": Titles("Daftar masuk dengan Apple", "Teruskan dengan Apple", "Daftar dengan Apple"),
        "nl_NL": Titles("Log in met Apple", "Ga door met Apple", "Registreer met Apple"),
        "no_NO": Titles("Logg på med Apple", "Fortsett med Apple", "Registrer deg med Apple"),
        "pl_PL": Titles("Zaloguj się przez Apple", "Kontynuuj przez Apple", "Zarejestruj się przez Apple"),
        "pt_BR": Titles("Iniciar sessão com a Apple", "Continuar com a Apple", "Cadastrar-se com a Apple"),
        "pt_PT": Titles("Iniciar sessão com a Apple", "Continuar com a Apple", "Registar com a Apple"),
        "ro_RO": Titles("Conectați-vă cu Apple", "Continuați cu Apple", "Înregistrați-vă cu Apple"),
        "ru_RU": Titles("Вход с Apple", "Продолжить с Apple", "Регистрация с Apple"),
        "sk_SK": Titles("Prihlásiť sa cez Apple", "Pokračovať cez Apple", "Zaregistrovať sa cez Apple"),
        "sv_SE": Titles("Logga in med Apple", "Fortsätt med Apple", "Registrera dig med Apple"),
        "th_TH": Titles("ลงชื่อเข้าด้วย Apple", "ดำเนินการต่อด้วย Apple", "ลงทะเบียนด้วย Apple"),
        "tr_TR": Titles("Apple ile Giriş Yap", "Apple ile Devam Et", "Apple ile Kaydol"),
        "uk_UA": Titles("Увійти з Apple", "Продовжити з Apple", "Зареєструватися з Apple"),
        "vi_VI": Titles("Đăng nhập bằng Apple", "Tiếp tục với Apple", "Đăng ký bằng Apple"),
        "zh_CN": Titles("通过 Apple 登录", "通过 Apple 继续", "通过 Apple 注册"),
        "zh_HK": traditionalChinese,
        "zh_TW": traditionalChinese,
    ]
}
