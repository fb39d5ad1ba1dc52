/// Failures inside Juice that are not the user's doing (the user's own are ``UserFacingError``).
public enum JuiceError: Error, Sendable, Equatable {
    case accountVanished
    case templateMissing(String)
    /// The storage key that seals Apple refresh tokens is missing, malformed or not the one they were sealed with.
    case badStorageKey(String)
}
