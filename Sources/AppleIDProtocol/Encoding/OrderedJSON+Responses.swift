extension TokenResponse: OrderedJSONObject {
    /// Apple's documented order: `access_token, token_type, expires_in, refresh_token, id_token`.
    public var orderedMembers: [(key: String, value: JSONMemberValue)] {
        var members: [(key: String, value: JSONMemberValue)] = [
            ("access_token", .string(accessToken)), ("token_type", .string(tokenType)), ("expires_in", .integer(expiresIn)),
        ]
        if let refreshToken { members.append(("refresh_token", .string(refreshToken))) }
        if let idToken { members.append(("id_token", .string(idToken))) }
        return members
    }
}

extension OAuthErrorResponse: OrderedJSONObject {
    public var orderedMembers: [(key: String, value: JSONMemberValue)] {
        var members: [(key: String, value: JSONMemberValue)] = [("error", .string(error.rawValue))]
        if let errorDescription { members.append(("error_description", .string(errorDescription))) }
        return members
    }
}

extension DiscoveryDocument: OrderedJSONObject {
    /// The order of Apple's served document (spec §2).
    public var orderedMembers: [(key: String, value: JSONMemberValue)] {
        [
            ("issuer", .string(issuer)), ("authorization_endpoint", .string(authorizationEndpoint)),
            ("token_endpoint", .string(tokenEndpoint)), ("revocation_endpoint", .string(revocationEndpoint)),
            ("jwks_uri", .string(jwksURI)), ("response_types_supported", .strings(responseTypesSupported)),
            ("response_modes_supported", .strings(responseModesSupported)), ("subject_types_supported", .strings(subjectTypesSupported)),
            ("id_token_signing_alg_values_supported", .strings(idTokenSigningAlgValuesSupported)),
            ("scopes_supported", .strings(scopesSupported)),
            ("token_endpoint_auth_methods_supported", .strings(tokenEndpointAuthMethodsSupported)),
            ("claims_supported", .strings(claimsSupported)),
        ]
    }
}
