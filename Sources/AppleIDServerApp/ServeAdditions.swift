import AppleIDButtons
import AppleIDServer
import AppleIDStore
import Crypto
import Logging
import Prometheus

/// What `siwa serve` adds to the protocol server of AppleIDServer: the button images and `/metrics`.
package enum ServeAdditions {
    /// - Parameters:
    ///   - registry: where `/metrics` reads from; the provider's metrics factory writes to it.
    ///   - fontFiles: where the button images' fonts are looked up (tests: a machine without a font package).
    package static func all(
        metrics registry: PrometheusCollectorRegistry, adminToken: String, fontFiles: ButtonFontFiles = .installed
    ) throws -> [any ServerAddition] {
        let images = try ButtonImages.standard(logger: Logger(label: "AppleIDServer.buttons"), fontFiles: fontFiles)
        return [ButtonAddition(images: images), MetricsEndpoint(registry: registry, adminToken: adminToken)]
    }
}

extension ServerOptions {
    /// The form-token secret of every instance whose storage key is `sealer`'s (HKDF with its own label).
    package static func formTokenKey(storageKey sealer: SecretSealer) -> SymmetricKey {
        sealer.derivedKey(purpose: "siwa form tokens v1")
    }
}
