import AppleIDProvider

/// State that a module above the engine keeps in the memory store (the relay's mail): it starts
/// empty, and is kept by type.
package protocol MemoryStoreAttachment: Sendable {
    init()
}

extension MemoryStore {
    /// Runs `body` on the store's state of type `S`, under the store's one lock: the module's
    /// operations are as atomic as the engine's, and a seed snapshot and its restore take the state
    /// along with the engine's.
    package func withAttached<S: MemoryStoreAttachment, Result: Sendable>(
        _: S.Type, _ body: (inout S) throws -> Result
    ) throws -> Result {
        try state.withLock { state in
            let key = ObjectIdentifier(S.self)
            // Taken out while `body` runs, so that it changes the only copy (no copy of its arrays).
            var attached = state.attached.removeValue(forKey: key) as? S ?? S()
            defer { state.attached[key] = attached }
            return try body(&attached)
        }
    }
}
