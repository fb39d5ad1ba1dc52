import AppleIDProvider
import Crypto
import Foundation

/// The `Message-ID`s that cross the relay (issue 35, findings 4 and 5): each side sees only ids
/// under the relay domain, and a reply's `In-Reply-To`/`References` reach the other side as the ids
/// it wrote. No storage: an id crossing one way is sealed (AES-GCM under the relay's key, with a
/// nonce derived from the id, so the same id is always the same relay id), and a relay id coming
/// back the other way is opened to the original. An id that does not open is foreign and is sealed.
struct RelayMessageIDs: Sendable {
    let key: SymmetricKey
    let relayDomain: String

    /// Which way the id crosses: sealed for one direction, it opens only in the other.
    enum Crossing: UInt8, Sendable {
        case forward = 1
        case reply = 2

        var opposite: Crossing { self == .forward ? .reply : .forward }
    }

    /// The longest original id mapped; a longer one is dropped, not carried.
    static let maximumIDLength = 250

    /// `<original>` as the other side sees it: a relay id it wrote opened back, any other sealed.
    func map(_ id: String, crossing: Crossing) -> String? {
        let inner = id.trimmingCharacters(in: CharacterSet(charactersIn: "<> \t"))
        if let original = open(inner, crossing: crossing) { return "<\(original)>" }
        guard !inner.isEmpty, inner.utf8.count <= Self.maximumIDLength else { return nil }
        return "<\(seal(inner, crossing: crossing))@\(relayDomain)>"
    }

    /// The msg-ids of an `In-Reply-To` or `References` value, each mapped; `nil` when none is left.
    func mapList(_ value: String, crossing: Crossing) -> String? {
        let mapped = Self.ids(in: value).compactMap { map($0, crossing: crossing) }
        return mapped.isEmpty ? nil : mapped.joined(separator: " ")
    }

    /// `<a@b> <c@d>` → `["<a@b>", "<c@d>"]` (RFC 5322 §3.6.4; comments and phrases are dropped).
    static func ids(in value: String) -> [String] {
        value.matches(of: /<[^<>\s]+>/).map { String($0.output) }
    }

    private func seal(_ id: String, crossing: Crossing) -> String {
        let plain = [crossing.rawValue] + Array(id.utf8)
        let nonceBytes = Array(HMAC<SHA256>.authenticationCode(for: plain, using: key)).prefix(12)
        // A 12-byte nonce always makes a nonce; the sealed box always has a combined form with it.
        guard let nonce = try? AES.GCM.Nonce(data: nonceBytes), let sealed = try? AES.GCM.seal(plain, using: key, nonce: nonce).combined else {
            return "x"
        }
        return Base32.encode(Array(sealed))
    }

    private func open(_ id: String, crossing: Crossing) -> String? {
        guard let at = id.lastIndex(of: "@"), id[id.index(after: at)...].lowercased() == relayDomain,
            let bytes = Base32.decode(String(id[..<at])), let box = try? AES.GCM.SealedBox(combined: bytes),
            let plain = try? AES.GCM.open(box, using: key), plain.starts(with: [crossing.opposite.rawValue])
        else { return nil }
        return String(decoding: plain.dropFirst(), as: UTF8.self)
    }
}

/// RFC 4648 base32 in lower case without padding: letters and digits, as a msg-id's left part allows.
enum Base32 {
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for char in text.lowercased().utf8 {
            guard let value = alphabet.firstIndex(of: char) else { return nil }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                out.append(UInt8((buffer >> (bits - 8)) & 255))
                bits -= 8
            }
            buffer &= 0xff
        }
        return out
    }
}
