import AppleIDProvider

extension ProviderStorage {
    /// In the process's memory, gone when it ends; each use is a new, empty store. For the emulator
    /// and tests.
    public static var inMemory: ProviderStorage { .store(MemoryStore()) }
}
