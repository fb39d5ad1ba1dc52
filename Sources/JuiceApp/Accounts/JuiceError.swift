/// Failures inside Juice that are not the user's doing (the user's own are ``UserFacingError``).
enum JuiceError: Error, Sendable {
    case accountVanished
    case templateMissing(String)
}
