import AppleIDMemoryStore
import AppleIDProtocol
import Crypto
import Foundation
import FuzzSupport
import SignInWithApple

@testable import AppleIDProvider

/// A P-256 key made for fuzzing only (its private half signed the seed secret in
/// `Fuzz/Corpus/FuzzClientSecret`), registered for team FUZZTEAM01 and the group com.example.fuzz.
let publicKeyPEM = """
    -----BEGIN PUBLIC KEY-----
    MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEQTrEtleyuM3cdlyOE3533podAHtu
    DKg7aCpAyx4K1E5d665/N7sWkoq/PDEMq7MtnGNyRj4R8xgVyqTS8hjQ6w==
    -----END PUBLIC KEY-----
    """
/// Inside the seed secret's lifetime.
let now = Date(timeIntervalSince1970: 1_795_241_800)

let store: MemoryStore = {
    let store = MemoryStore()
    FuzzInput.blocking {
        let team = TeamID(rawValue: "FUZZTEAM01")
        let group = ClientID(rawValue: "com.example.fuzz")
        try? await store.save(DeveloperTeam(id: team, name: "Fuzz"))
        try? await store.save(AppGroup(primaryAppID: group, teamID: team, displayName: "Fuzz"))
        try? await store.save(
            RegisteredClient(
                id: ClientID(rawValue: "com.example.fuzz.web"), kind: .service, teamID: team, groupID: group,
                returnURLs: ["https://fuzz.example.com/callback"]))
        try? await store.save(DeveloperKey(id: KeyID(rawValue: "FUZZKEY123"), teamID: team, primaryAppID: group, publicKeyPEM: publicKeyPEM))
    }
    return store
}()
let configuration = ProviderConfiguration(issuer: "https://id.example.com")
let authenticator = ClientAuthenticator(
    registry: store, clients: RegistryCache(registry: store, lifetime: 60), configuration: configuration, cache: VerifiedSecretCache())
// swift-format-ignore: NeverUseForceTry
// The harness cannot run without its inspector; the key is a constant above.
let inspector = try! ClientSecretInspector(
    key: .publicKeyPEM(publicKeyPEM), clientID: "com.example.fuzz.web", teamID: "FUZZTEAM01", keyID: "FUZZKEY123", clock: { now })

/// The client-secret reader and rulebook on any string: the server's `ClientAuthenticator` (split, header,
/// claims, registry look-up, ES256 signature, rules) and the kit's `ClientSecretInspector`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientSecret(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let secret = String(decoding: FuzzInput.bytes(start, count), as: UTF8.self)
    let report = inspector.inspect(secret)
    _ = report.rules.count
    // Read the global here, not inside the task: its first read fills the store, which waits on a task itself.
    let clientAuthenticator = authenticator
    FuzzInput.blocking {
        _ = try? await clientAuthenticator.authenticate(clientID: "com.example.fuzz.web", secret: secret, now: now)
    }
    return 0
}
