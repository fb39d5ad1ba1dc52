/// An error that is a value (a struct with static members, as jwt-kit's `JWTError`), which a `catch`
/// or `case` clause can still name as a pattern, as when the kit's errors were enums:
/// `catch IdentityTokenError.nonceMismatch`.
public protocol MatchableError: Error, Equatable {}

extension MatchableError {
    /// Whether `error` is this very error.
    public static func ~= (pattern: Self, error: any Error) -> Bool { (error as? Self) == pattern }
}
