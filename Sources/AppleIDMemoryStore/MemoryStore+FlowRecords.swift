import AppleIDProvider
import Foundation

extension MemoryStore: FlowRecordStore {
    public func save(_ record: FlowRecord) async throws {
        state.withLock { $0.flowRecords[Self.pair(record.kind.rawValue, record.key)] = record }
    }

    public func flowRecord(_ kind: FlowRecord.Kind, key: String, now: Date) async throws -> FlowRecord? {
        state.withLock { state in state.flowRecords[Self.pair(kind.rawValue, key)].flatMap { $0.expiresAt > now ? $0 : nil } }
    }

    public func takeFlowRecord(_ kind: FlowRecord.Kind, key: String, now: Date) async throws -> FlowRecord? {
        state.withLock { state in
            guard let record = state.flowRecords[Self.pair(kind.rawValue, key)], record.expiresAt > now else { return nil }
            state.flowRecords[Self.pair(kind.rawValue, key)] = nil
            return record
        }
    }

    public func deleteFlowRecord(_ kind: FlowRecord.Kind, key: String) async throws {
        _ = state.withLock { $0.flowRecords.removeValue(forKey: Self.pair(kind.rawValue, key)) }
    }
}
