import EnvironmentFile
import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
/// fails at the real bind, with the same message). It binds without listening: a client that
/// connects meanwhile is refused, never accepted, so no readiness probe takes the check for the
/// server.
enum PortCheck {
    static func ensureFree(host: String, port: Int) async throws {
        let address: SocketAddress
        do {
            address = try SocketAddress.makeAddressResolvingHost(host, port: port)
        } catch {
            throw StartupError("cannot listen on \(host):\(port): \(error)")
        }
        #if canImport(Glibc)
        let descriptor = socket(address.protocol.rawValue, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(address.protocol.rawValue, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw StartupError("cannot listen on \(host):\(port): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        // As the real listener binds: a port left in TIME_WAIT by the last run is free.
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.withSockAddr { bind(descriptor, $0, socklen_t($1)) }
        guard bound == 0 else {
            let code = errno
            throw code == EADDRINUSE
                ? StartupError.portInUse(port) : StartupError("cannot listen on \(host):\(port): \(String(cString: strerror(code)))")
        }
    }

    static func isAddressInUse(_ error: any Error) -> Bool {
        if let error = error as? IOError { return error.errnoCode == EADDRINUSE }
        return "\(error)".contains("Address already in use")
    }
}
