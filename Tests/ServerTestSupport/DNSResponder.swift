import NIOCore
import NIOPosix
import Synchronization

/// A tiny DNS server on 127.0.0.1 for tests: answers TXT questions from a table, written byte by
/// byte as RFC 1035 §4.1 lays them out, so the resolver under test is checked against the format
/// rather than against itself.
package struct DNSResponder: Sendable {
    package enum Reply: Sendable {
        /// NOERROR with one TXT record per entry, each entry's strings as separate <character-string>s.
        case txt([[String]])
        /// The RCODE alone: 2 SERVFAIL, 3 NXDOMAIN.
        case code(UInt8)
        /// A reply with the wrong id first (to be ignored), then the right one.
        case strayThen([[String]])
        /// No reply at all.
        case silence
    }

    package let table: [String: Reply]

    package init(table: [String: Reply]) { self.table = table }

    /// Runs the responder while `body` runs, with its port. It answers on the event loop itself, not
    /// in a task: under the whole suite's load Swift's concurrency pool can be busy for longer than
    /// the resolver's timeout, which a responder in a task then missed.
    /// `heard` learns the name of every question as it arrives, before it is answered.
    package func serve<T: Sendable>(heard: HeardQuestions? = nil, _ body: (Int) async throws -> T) async throws -> T {
        let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(responder: self, heard: heard))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        do {
            let result = try await body(port)
            try await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// Answers each query datagram with ``answer(_:)``'s datagrams.
    final class Handler: ChannelInboundHandler, Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        typealias OutboundOut = AddressedEnvelope<ByteBuffer>
        let responder: DNSResponder
        let heard: HeardQuestions?

        init(responder: DNSResponder, heard: HeardQuestions?) {
            self.responder = responder
            self.heard = heard
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let query = unwrapInboundIn(data)
            if let name = responder.questionName(Array(buffer: query.data)) { heard?.record(name) }
            for reply in responder.answer(Array(buffer: query.data)) {
                context.write(wrapOutboundOut(AddressedEnvelope(remoteAddress: query.remoteAddress, data: ByteBuffer(bytes: reply))), promise: nil)
            }
            context.flush()
        }
    }

    /// The name a query asks about, lower-cased.
    func questionName(_ query: [UInt8]) -> String? {
        guard query.count > 12 else { return nil }
        var labels: [String] = []
        var index = 12
        while index < query.count, query[index] != 0 {
            let length = Int(query[index])
            labels.append(String(decoding: query[(index + 1)..<min(index + 1 + length, query.count)], as: UTF8.self))
            index += 1 + length
        }
        return labels.joined(separator: ".").lowercased()
    }

    /// The datagrams that answer `query`.
    func answer(_ query: [UInt8]) -> [[UInt8]] {
        guard query.count > 12 else { return [] }
        var labels: [String] = []
        var index = 12
        while index < query.count, query[index] != 0 {
            let length = Int(query[index])
            labels.append(String(decoding: query[(index + 1)..<min(index + 1 + length, query.count)], as: UTF8.self))
            index += 1 + length
        }
        let question = Array(query[12..<min(index + 5, query.count)])
        let id = Array(query[0..<2])
        switch table[labels.joined(separator: ".").lowercased()] ?? .code(3) {
        case .txt(let records): return [response(id: id, question: question, code: 0, records: records)]
        case .code(let code): return [response(id: id, question: question, code: code, records: [])]
        case .strayThen(let records):
            let wrong = [id[0] ^ 0xff, id[1]]
            return [
                response(id: wrong, question: question, code: 0, records: [["v=spf1 stray"]]),
                response(id: id, question: question, code: 0, records: records),
            ]
        case .silence: return []
        }
    }

    func response(id: [UInt8], question: [UInt8], code: UInt8, records: [[String]]) -> [UInt8] {
        // QR, RD, RA set; one question; the answers.
        var bytes = id + [0x81, 0x80 | code, 0, 1, 0, UInt8(records.count), 0, 0, 0, 0] + question
        for strings in records {
            let data = strings.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
            // The owner name is a pointer to the question's name at offset 12.
            bytes += [0xc0, 0x0c, 0, 16, 0, 1, 0, 0, 0x0e, 0x10, UInt8(data.count >> 8), UInt8(data.count & 0xff)] + data
        }
        return bytes
    }
}

/// The questions a ``DNSResponder`` has heard, and a resolver's wait for its timeout built on them: a
/// lookup of `silentName` times out once the responder has heard that question (and, silent, not
/// answered it); every other lookup never times out, so its answer does not depend on the machine's load.
package final class HeardQuestions: Sendable {
    package let silentName: String
    private struct State {
        var names: Set<String> = []
        var waiting: [String: [UInt64: CheckedContinuation<Void, Never>]] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    package init(silentName: String) { self.silentName = silentName }

    package func record(_ name: String) {
        let waiting = state.withLock { state in
            state.names.insert(name)
            return state.waiting.removeValue(forKey: name) ?? [:]
        }
        for continuation in waiting.values { continuation.resume() }
    }

    /// For ``UDPTXTResolver``'s `waitOut`. Both waits end when the test's task is cancelled (its time
    /// limit): a wait that ignored cancellation would keep the whole test run from ever ending.
    package var waitOut: @Sendable (Duration, String) async throws -> Void {
        { [self] _, name in
            // An answered lookup ends the wait by cancelling it; a year stands for "never" here.
            guard name.lowercased() == silentName else { return try await Task.sleep(for: .seconds(365 * 86_400)) }
            try await heard(name.lowercased())
        }
    }

    /// Returns once the responder has heard a question for `name`; throws when cancelled first.
    private func heard(_ name: String) async throws {
        let waiter = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.names.contains(name) || Task.isCancelled { return true }
                    state.waiting[name, default: [:]][waiter] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting[name]?.removeValue(forKey: waiter) }?.resume()
        }
        try Task.checkCancellation()
    }
}
