import Dispatch
import Synchronization

/// Generates the first RSA-2048 key on a background thread from the moment it is made, so that a
/// first start overlaps the key's generation (about 130 ms) with opening and migrating the store;
/// ``makePrivateKeyPEM()`` waits for that key, and later calls generate fresh ones. Made only when a
/// key will be needed (a fresh data directory): on a restart it would spend a core for nothing.
public final class PrefetchingSigningKeyFactory: SigningKeyFactory {
    private let generator: any SigningKeyFactory
    private let first = DispatchGroup()
    private let prefetched = Mutex<Result<String, any Error>?>(nil)
    private let taken = Mutex(false)

    public init(generator: any SigningKeyFactory = GeneratingSigningKeyFactory()) {
        self.generator = generator
        first.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result = Result { try generator.makePrivateKeyPEM() }
            prefetched.withLock { $0 = result }
            first.leave()
        }
    }

    public func makePrivateKeyPEM() throws -> String {
        let isFirst = taken.withLock { wasTaken in
            defer { wasTaken = true }
            return !wasTaken
        }
        guard isFirst else { return try generator.makePrivateKeyPEM() }
        // The generation runs on a Dispatch thread, never on the caller's: waiting cannot deadlock.
        first.wait()
        return try prefetched.withLock { $0! }.get()
    }
}
