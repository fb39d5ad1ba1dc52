import AppleIDProtocol
import Crypto
import Foundation
import RS256Signing
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
    /// The library that signs with the active key: the engine does not know which one it is.
    let signer: any RS256Signer
    /// How long a retired key stays in `/auth/keys`: longer than any token it signed can live.
    let retiredKeyRetention: TimeInterval
    /// Development mode's key that `/auth/keys` never publishes, once made (``prepareUnpublishedKey()``).
    let unpublishedKey = Mutex<(any RS256SigningKey)?>(nil)

    /// Loads the ring from the store, creating the active and next keys when missing. Instances
    /// starting together on an empty store agree on one key of each (the store inserts only one).
    /// `signer` has no default here: the engine's start makes that choice, once.
    public static func load(
        store: any SigningKeyStore & SigningKeyRotationStore, keyFactory: any SigningKeyFactory, random: any RandomSource, now: Date,
        retiredKeyRetention: TimeInterval = 7 * 86_400, signer: any RS256Signer
    ) async throws -> SigningKeyRing {
        var records = try await store.signingKeys()
        for state in [SigningKeyRecord.State.active, .next] where !records.contains(where: { $0.state == state }) {
            let key = try await makeRecord(state: state, factory: keyFactory, random: random, now: now)
            if try await store.insertSigningKeyIfAbsent(key) { records.append(key) } else { records = try await store.signingKeys() }
        }
        let snapshot = try makeSnapshot(records, now: now, retention: retiredKeyRetention, signer: signer)
        return SigningKeyRing(
            snapshot: snapshot, store: store, keyFactory: keyFactory, random: random, retention: retiredKeyRetention, signer: signer)
    }

    private init(
        snapshot: Snapshot, store: any SigningKeyStore & SigningKeyRotationStore, keyFactory: any SigningKeyFactory,
        random: any RandomSource, retention: TimeInterval, signer: any RS256Signer
    ) {
        self.signer = signer
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
    /// Which library signs, for the start-up log: `OpenSSL 3.0.19 (libcrypto)` or `swift-crypto (BoringSSL)`.
    public var signerName: String { signer.name }

    /// A new key record; the key is made off Swift's pool (``OffThePool``).
    static func makeRecord(
        state: SigningKeyRecord.State, factory: any SigningKeyFactory, random: any RandomSource, now: Date
    ) async throws -> SigningKeyRecord {
        let id = SigningKeyID(rawValue: random.string(length: 10, alphabet: keyIDAlphabet))
        return SigningKeyRecord(
            id: id, privateKeyPEM: try await OffThePool.run { try factory.makePrivateKeyPEM() }, state: state, createdAt: now,
            activatedAt: state == .active ? now : nil)
    }

    private static let keyIDAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

    /// The keys as `records` show them. Only the active key goes to the signer: when `current` is
    /// that key already (a reload that found no rotation), it is kept, so a key is handed to the
    /// signer's library once per activation, and the retired key's copy is released with the snapshot.
    static func makeSnapshot(
        _ records: [SigningKeyRecord], now: Date, retention: TimeInterval, signer: any RS256Signer, current: LoadedSigningKey? = nil
    ) throws -> Snapshot {
        guard let activeRecord = records.first(where: { $0.state == .active }) else {
            throw SigningKeyError.noActiveKey
        }
        let published = records.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.filter { record in
            switch record.state {
            case .active, .next: true
            case .retired: (record.retiredAt ?? .distantPast).addingTimeInterval(retention) > now
            }
        }
        let keySet = PublishedKeySet(keys: try published.map(LoadedSigningKey.publicJWK(of:)))
        let active = try current.flatMap { $0.id == activeRecord.id ? $0 : nil } ?? LoadedSigningKey(record: activeRecord, signer: signer)
        return Snapshot(active: active, publishedKeySetJSON: keySet.orderedJSON, publishedIDs: published.map(\.id))
    }
}

public enum SigningKeyError: Error, Equatable {
    case noActiveKey
    case noNextKey
    case notAnRSA2048Key
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
