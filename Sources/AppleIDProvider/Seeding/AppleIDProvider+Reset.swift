import Foundation

extension AppleIDProvider {
    /// Records the store's current records as the seeded state ``reset()`` returns to (`siwa serve`
    /// calls it right after the first start's seeding, and after a declaration is applied).
    public func recordSeededState() async throws {
        try await store.saveSeedSnapshot()
        logger.info("seeded state recorded")
    }

    /// Records the seeded state unless one is recorded: a data directory seeded by a version without
    /// resets gets the state of its first start under this one.
    public func recordSeededStateIfMissing() async throws {
        guard try await !store.hasSeedSnapshot() else { return }
        try await recordSeededState()
    }

    /// Puts the server back in its seeded state, for tests (development mode only): the demo team,
    /// App IDs, Services IDs, keys and Apple IDs as the first start made them, with the same ids and
    /// passwords; every authorization, consent, grant, token, code, notification, relayed mail,
    /// request log entry and added record gone; armed faults disarmed and the clock back to real time.
    /// The signing keys stay (relying parties cache them). One store call, all or nothing.
    public func reset() async throws {
        guard configuration.developmentMode else {
            throw ConsoleError.refused("reset works only in development mode (siwa serve --development)")
        }
        // Written first, so a batch still in the buffer cannot land after the reset.
        await flushRequestLog()
        guard try await store.restoreSeedSnapshot() else {
            throw ConsoleError.refused("no seeded state is recorded for this database; restart siwa serve to record one")
        }
        faultSwitch?.disarmAll()
        registryDidChange()
        (clock as? any AdjustableClock)?.reset()
        logger.notice("server reset to its seeded state")
    }
}
