import EnvironmentFile
import Foundation
import NIOCore
import NIOPosix

/// Why `siwa serve` cannot start, in one line that names the setting to change.
public struct StartupError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }

    static func portInUse(_ port: Int) -> StartupError {
        StartupError("port \(port) is in use; choose another with --port")
    }

    static func dataDirectory(_ path: String, _ problem: String) -> StartupError {
        StartupError("the data directory \(path) \(problem); choose another with --data-dir, or fix its permissions")
    }

    /// A declaration file (`--config`) that cannot be read or that the engine refuses: file, line and rule.
    static func configuration(_ error: EnvironmentFileError) -> StartupError { StartupError("\(error)") }

    static func unknownAutoApprove(_ appleID: String, demo: [String]) -> StartupError {
        StartupError("no Apple ID \(appleID); the demo ones are \(demo.joined(separator: ", ")) (or add one with `siwa users add`)")
    }
}

/// Whether `host:port` can be listened on now: the check before anything is seeded, written or
/// printed, so a taken port leaves no trace (a race with another process after this check still
/// fails at the real bind, with the same message).
enum PortCheck {
    static func ensureFree(host: String, port: Int) async throws {
        let channel: any Channel
        do {
            channel = try await NIOPosix.ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port).get()
        } catch {
            throw isAddressInUse(error) ? StartupError.portInUse(port) : StartupError("cannot listen on \(host):\(port): \(error)")
        }
        try await channel.close()
    }

    static func isAddressInUse(_ error: any Error) -> Bool {
        if let error = error as? IOError { return error.errnoCode == EADDRINUSE }
        return "\(error)".contains("Address already in use")
    }
}
