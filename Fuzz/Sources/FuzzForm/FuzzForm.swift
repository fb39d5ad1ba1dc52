import AppleIDProtocol
import FuzzSupport

@testable import AppleIDServer

/// The server's form decoder (`FormDecoding.decode`, ``FlatFormDecoder``
/// underneath) on every request type the endpoints decode from a query or a body, and
/// `FormURLEncoding` as the writing half: a decoded request written back and read again is the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzForm(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    // A body is read as `String(buffer:)`, which repairs invalid UTF-8 the same way.
    let form = String(decoding: FuzzInput.bytes(start, count), as: UTF8.self)

    if let request = try? FormDecoding.decode(TokenRequest.self, from: form) {
        let written = FormURLEncoding.join([
            ("grant_type", request.grantType), ("client_id", request.clientID), ("client_secret", request.clientSecret),
            ("code", request.code), ("redirect_uri", request.redirectURI), ("refresh_token", request.refreshToken),
            ("code_verifier", request.codeVerifier), ("scope", request.scope),
        ])
        guard let again = try? FormDecoding.decode(TokenRequest.self, from: written) else {
            FuzzInput.fail("FormURLEncoding wrote \(written.debugDescription), which does not decode")
        }
        guard again == request else { FuzzInput.fail("\(form.debugDescription) does not survive a round trip") }
    }
    _ = try? FormDecoding.decode(AuthorizationRequest.self, from: form)
    _ = try? FormDecoding.decode(RevocationRequest.self, from: form)
    _ = try? FormDecoding.decode(UserMigrationRequest.self, from: form)
    return 0
}
