import AppleIDProtocol
import Crypto
import Foundation
import Synchronization
import _CryptoExtras

/// The provider's RSA signing keys: one active key signs, the next key is published ahead of
/// rotation, retired keys stay published so the tokens they signed keep verifying.
///
/// Keys are parsed once; the JWKS is serialized once per key change and served as bytes.
public final class SigningKeyRing: Sendable {
    /// An immutable view of the ring, swapped whole on rotation.
    struct Snapshot: Sendable {
        let active: LoadedSigningKey
        let publishedKeySetJSON: [UInt8]
        let publishedIDs: [SigningKeyID]
    }

    let snapshot: Mutex<Snapshot>
    let store: any SigningKeyStore & SigningKeyRotationStore
    let keyFactory: any SigningKeyFactory
    let random: any RandomSource
    /// How long a retired key stays in `/auth/keys`: longer than any token it signed can live.
    let retiredKeyRetention: TimeInterval

    /// Loads the ring from the store, creating the active and next keys when missing. Instances
    /// starting together on an empty store agree on one key of each (the store inserts only one).
    public static func load(
        store: any SigningKeyStore & SigningKeyRotationStore, keyFactory: any SigningKeyFactory, random: any RandomSource, now: Date,
        retiredKeyRetention: TimeInterval = 7 * 86_400
    ) async throws -> SigningKeyRing {
        var records = try await store.signingKeys()
        for state in [SigningKeyRecord.State.active, .next] where !records.contains(where: { $0.state == state }) {
            let key = try makeRecord(state: state, factory: keyFactory, random: random, now: now)
            if try await store.insertSigningKeyIfAbsent(key) { records.append(key) } else { records = try await store.signingKeys() }
        }
        let snapshot = try makeSnapshot(records, now: now, retention: retiredKeyRetention)
        return SigningKeyRing(
            snapshot: snapshot, store: store, keyFactory: keyFactory, random: random, retention: retiredKeyRetention)
    }

    private init(
        snapshot: Snapshot, store: any SigningKeyStore & SigningKeyRotationStore, keyFactory: any SigningKeyFactory,
        random: any RandomSource, retention: TimeInterval
    ) {
        self.snapshot = Mutex(snapshot)
        self.store = store
        self.keyFactory = keyFactory
        self.random = random
        self.retiredKeyRetention = retention
    }

    /// The `{"keys":[…]}` body of `/auth/keys`, precomputed.
    public var publishedKeySetJSON: [UInt8] { snapshot.withLock { $0.publishedKeySetJSON } }
    public var publishedKeyIDs: [SigningKeyID] { snapshot.withLock { $0.publishedIDs } }
    public var activeKeyID: SigningKeyID { snapshot.withLock { $0.active.id } }
    var activeKey: LoadedSigningKey { snapshot.withLock { $0.active } }

    static func makeRecord(
        state: SigningKeyRecord.State, factory: any SigningKeyFactory, random: any RandomSource, now: Date
    ) throws -> SigningKeyRecord {
        let id = SigningKeyID(rawValue: random.string(length: 10, alphabet: keyIDAlphabet))
        return SigningKeyRecord(
            id: id, privateKeyPEM: try factory.makePrivateKeyPEM(), state: state, createdAt: now,
            activatedAt: state == .active ? now : nil)
    }

    private static let keyIDAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

    static func makeSnapshot(_ records: [SigningKeyRecord], now: Date, retention: TimeInterval) throws -> Snapshot {
        guard let activeRecord = records.first(where: { $0.state == .active }) else {
            throw SigningKeyError.noActiveKey
        }
        let published = records.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.filter { record in
            switch record.state {
            case .active, .next: true
            case .retired: (record.retiredAt ?? .distantPast).addingTimeInterval(retention) > now
            }
        }
        let loaded = try published.map(LoadedSigningKey.init(record:))
        let keySet = PublishedKeySet(keys: loaded.map(\.publicJWK))
        return Snapshot(
            active: try LoadedSigningKey(record: activeRecord),
            publishedKeySetJSON: keySet.orderedJSON,
            publishedIDs: loaded.map(\.id))
    }
}

public enum SigningKeyError: Error, Equatable {
    case noActiveKey
    case noNextKey
    case notAnRSA2048Key
}

/// A signing key parsed once: the RSA key, its published JWK and its precomputed JWS header.
struct LoadedSigningKey: Sendable {
    let id: SigningKeyID
    let privateKey: _RSA.Signing.PrivateKey
    let publicJWK: PublishedKeySet.Key
    /// base64url of `{"kid":"…","alg":"RS256"}`: Apple's exact header, `kid` first, no `typ`.
    let encodedHeader: String

    init(record: SigningKeyRecord) throws {
        let key = try _RSA.Signing.PrivateKey(pemRepresentation: record.privateKeyPEM)
        guard key.keySizeInBits == 2048 else { throw SigningKeyError.notAnRSA2048Key }
        let components = try key.publicKey.getKeyPrimitives()
        self.id = record.id
        self.privateKey = key
        self.publicJWK = PublishedKeySet.Key(
            kid: record.id, modulus: Base64URL.encode(components.modulus), exponent: Base64URL.encode(components.publicExponent))
        self.encodedHeader = Base64URL.encode(Array(#"{"kid":"\#(record.id.rawValue)","alg":"RS256"}"#.utf8))
    }
}

/// Makes new RSA-2048 private keys (PEM). Injected so tests use fixture keys instead of paying
/// for key generation.
public protocol SigningKeyFactory: Sendable {
    func makePrivateKeyPEM() throws -> String
}

/// Generates fresh RSA-2048 keys with swift-crypto.
public struct GeneratingSigningKeyFactory: SigningKeyFactory {
    public init() {}

    public func makePrivateKeyPEM() throws -> String {
        try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation
    }
}

/// Hands out the given keys in order: for tests.
public final class FixedSigningKeyFactory: SigningKeyFactory {
    private let remaining: Mutex<[String]>

    public init(pems: [String]) { remaining = Mutex(pems) }

    public func makePrivateKeyPEM() throws -> String {
        try remaining.withLock { pems in
            guard !pems.isEmpty else { throw SigningKeyError.noActiveKey }
            return pems.removeFirst()
        }
    }
}
