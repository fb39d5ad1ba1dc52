import AppleIDProtocol
import AppleIDProvider

extension AuthorizationResponse {
    /// The answer's wire parameters, in Apple's order (spec §3.3): `code`, `id_token`, `state`,
    /// `user` for an approval; `error`, `state` for a refusal, whose reason stays in the log.
    func wireParameters() throws -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)]
        switch outcome {
        case .authorized(let issued):
            parameters = [("code", issued.code)]
            if let idToken = issued.idToken { parameters.append(("id_token", idToken)) }
            if let state { parameters.append(("state", state)) }
            if let user = issued.user { parameters.append(("user", try user.jsonString())) }
        case .refused(let error):
            parameters = [("error", error.code.rawValue)]
            if let state { parameters.append(("state", state)) }
        }
        return parameters
    }
}
