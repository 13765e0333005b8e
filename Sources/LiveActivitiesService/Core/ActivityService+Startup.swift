import ActivityModel
import DBus

/// Start-up, in the order that keeps both promises: the manager is exported before the bus
/// name is requested (DESIGN.md), and the state is read only once the daemon holds the state
/// lock and the name (issue 14), so a daemon that is not the one serving never touches it.
extension ActivityService {
    /// Exports the manager object; call before the bus name is requested (DESIGN.md).
    public func exportManager() throws(DBusError) {
        try environment.server.export(BusNames.managerPath, [ManagerInterface.make(self)])
        environment.server.enableObjectManager(at: BusNames.managerPath)
    }

    /// Reads the saved state (only once the daemon holds the state lock and the bus name, so
    /// a daemon that is not the one serving never reads it), exports the restored activities
    /// and applies what time did while the daemon was down. The loop has not dispatched a
    /// call yet, so no client sees the manager without them.
    public func restoreState() {
        let now = environment.clock.now
        scheduler.anchorWallClock(now: now)
        if let saved = durability.store.load(now: now) {
            registry = ActivityRegistry(catalog: catalog, limits: limits, snapshot: saved.registry)
            for (id, notificationID) in saved.notificationIDs {
                publisher.adopt(notificationID: notificationID, of: id)
            }
        }
        for activity in registry.activities { publisher.exportActivityOrLog(activity.id.rawValue) }
        let events = registry.tick(now: now, timeZoneOffset: environment.clock.utcOffset(at: now), style: .standard)
        registry.logDroppedScheduledUpdates()
        durability.recordHistory(events, now: now)
        let view = readView(at: now)
        announce(events, in: view)
        for activity in registry.activities { publisher.refresh(activity.id.rawValue, alert: nil, in: view) }
        do {
            try durability.store.saveAll(fullState)
        } catch {
            Log.error("\(error.description); calls that change something are refused until it can be written")
        }
        settle(in: view)
        Log.info("\(registry.activities.count) activities restored, kinds: \(kindNames.joined(separator: ", "))")
    }

    /// Refuses every change from now on (`StorageFailed`) while reads go on: the daemon could
    /// not take the state lock for `reason` (not because another daemon holds it, which ends
    /// the process), so it must not write files another daemon may be writing. Call before
    /// `restoreState`.
    public func refuseChanges(because reason: String) {
        durability.store.lockProblem = reason
    }

    /// `exportManager` then `restoreState`, for a service that requests no name (tests).
    public func exportObjects() throws(DBusError) {
        try exportManager()
        restoreState()
    }
}
