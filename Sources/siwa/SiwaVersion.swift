/// The version of `siwa` (and of this package), kept in this one place: `siwa --version` prints it.
enum SiwaVersion {
    static let current = "0.9.0"
}
