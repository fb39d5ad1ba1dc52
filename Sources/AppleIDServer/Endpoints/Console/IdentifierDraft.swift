import AppleIDProtocol
import AppleIDProvider

/// An identifier being registered, as the register flow's steps carry it from page to page in hidden
/// fields: nothing is stored before Register, and Back loses nothing.
struct IdentifierDraft: Sendable {
    enum Kind: String, Sendable { case app, services }

    /// The flow's steps, in order; a step is shown only once every step before it passes.
    enum Step: String, Sendable, Comparable {
        case type, details, capabilities, review, register

        static func < (a: Step, b: Step) -> Bool { a.rank < b.rank }

        private var rank: Int {
            switch self {
            case .type: 0
            case .details: 1
            case .capabilities: 2
            case .review: 3
            case .register: 4
            }
        }
    }

    var kind: Kind?
    var description: String
    var identifier: String
    var signInWithApple: Bool
    var primaryAppID: String
    var domains: String
    var returnURLs: String

    init(_ form: ConsoleForm, kind: Kind? = nil) {
        self.kind = kind ?? form.type.flatMap(Kind.init(rawValue:))
        description = form.description ?? ""
        identifier = (self.kind == .app ? form.bundleID : form.identifier) ?? ""
        signInWithApple = form.signInWithApple != nil
        primaryAppID = form.primaryAppID ?? ""
        domains = form.domains ?? ""
        returnURLs = form.returnURLs ?? ""
    }

    /// The form field of the identifier: an App ID's Bundle ID, a Services ID's identifier.
    var identifierField: String { kind == .app ? "bundle_id" : "identifier" }

    /// The chosen primary App ID; for an App ID, empty means "enable as a primary App ID".
    var primary: ClientID? { primaryAppID.isEmpty ? nil : ClientID(rawValue: primaryAppID) }

    /// The draft's fields that `step` does not show as inputs, to carry as hidden fields.
    func hidden(on step: Step) -> [HiddenField] {
        var fields = [HiddenField(name: "type", value: kind?.rawValue ?? "")]
        if step != .details {
            fields += [HiddenField(name: "description", value: description), HiddenField(name: identifierField, value: identifier)]
        }
        if step != .capabilities {
            if signInWithApple { fields.append(HiddenField(name: "sign_in_with_apple", value: "on")) }
            fields.append(HiddenField(name: "primary_app_id", value: primaryAppID))
            if kind == .services {
                fields += [HiddenField(name: "domains", value: domains), HiddenField(name: "return_urls", value: returnURLs)]
            }
        }
        return fields
    }
}

struct HiddenField: Sendable {
    let name: String
    let value: String
}
