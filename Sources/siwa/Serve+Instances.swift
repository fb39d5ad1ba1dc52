import AppleIDServer
import AppleIDServerApp
import ArgumentParser
import Foundation

extension Serve {
    /// The durations that several instances on one database agree on: key rotation and delivery leases.
    func applyInstanceOptions(to settings: inout ServeSettings) throws {
        let durations = [
            ("--notification-lease", notificationLease), ("--key-rotation-interval", keyRotationInterval),
            ("--key-publication-lead", keyPublicationLead), ("--retired-key-retention", retiredKeyRetention),
            ("--key-check-interval", keyCheckInterval),
        ]
        var seconds: [TimeInterval] = []
        for (option, text) in durations {
            guard let value = Secret.seconds(text), value >= 0 else {
                throw ValidationError("\(option) is a duration such as 30s, 10m, 24h, 30d (not \(text))")
            }
            seconds.append(TimeInterval(value))
        }
        settings.deliveryPolicy.leaseDuration = seconds[0]
        settings.keyRotation.rotationInterval = seconds[1]
        settings.keyRotation.publicationLead = seconds[2]
        settings.keyRotation.retiredKeyRetention = seconds[3]
        settings.keyCheckInterval = seconds[4]
    }
}
