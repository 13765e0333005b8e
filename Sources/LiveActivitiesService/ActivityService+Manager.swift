import ActivityModel
import DBus

/// What depends on every activity: the manager's CompactText, ActiveCount,
/// NotificationServer and StorageStatus, the tray item, and the one timer of all activities.
extension ActivityService {
    /// Recomputed once per publishing round, and under a flood at most once per
    /// `settleInterval` (on the monotonic clock, so a wall-clock step cannot hold it back): a
    /// flood of updates pays for them 20 times a second, not once per update.
    func settleSoon() {
        guard !rounds.settlePending else { return }
        rounds.settlePending = true
        let elapsed = clock.monotonicNow - rounds.lastSettle
        if elapsed >= Self.settleInterval {
            settleRound()
        } else {
            clock.wake(afterSeconds: Self.settleInterval - elapsed) { [weak self] in self?.settleRound() }
        }
    }

    /// The shortest time between two settlings under a flood of calls.
    static let settleInterval = 0.05

    private func settleRound() {
        rounds.settlePending = false
        rounds.lastSettle = clock.monotonicNow
        settle(now: clock.now)
    }

    /// The manager's properties, the tray and the timer, at `now` (a tick, a new server, new kinds).
    func settle(now: Double) {
        refreshManager(now: now)
        reschedule(now: now)
        settleFocus(now: now)
    }

    /// Announces the manager's properties that changed, from the values computed here (the
    /// compact text is rendered once and serves the tray too).
    func refreshManager(now: Double) {
        let compact = compactText(at: now)
        let values: [String: DBusValue] = ["CompactText": .string(compact), "ActiveCount": .uint32(UInt32(activeCount)),
                                           "NotificationServer": .string(notificationServer),
                                           "StorageStatus": .string(store.status)]
        let changed = values.filter { publishedManager[$0.key] != $0.value }
        publishedManager = values
        if !changed.isEmpty {
            server.emitPropertiesChanged(path: BusNames.managerPath, interface: BusNames.managerInterface, values: changed)
        }
        tray?.update(trayState(at: now, compactText: compact))
    }

    /// Announces a change of `StorageStatus` (a write failed, or works again) at once.
    func publishStorageStatus() {
        guard publishedManager["StorageStatus"] != .string(store.status) else { return }
        refreshManager(now: clock.now)
    }

    /// Arms the one timer at the model's next deadline (none when nothing is live).
    func reschedule(now: Double) {
        let deadline = registry.nextDeadline(after: now, timeZoneOffset: clock.utcOffset(at: now), style: renderStyle)
        scheduler.schedule(at: deadline) { [weak self] in self?.tick() }
    }

    /// The wall clock was stepped (either way): the armed deadline was computed from the old
    /// time, so render now and re-arm from the new time.
    func wallClockStepped() {
        Log.info("the wall clock was stepped; rendering now and re-arming the timer from the new time")
        shiftClockAnchors()
        scheduler.cancel()
        tick()
    }

    /// The timer fired: whatever was due happens, at one moment read once.
    func tick() {
        publishNow()
        let now = clock.now
        let before = registry
        let events = registry.tick(now: now, timeZoneOffset: clock.utcOffset(at: now), style: renderStyle)
        let lasting = events.filter { if case .rendered = $0 { return false } else { return true } }
        if !lasting.isEmpty { persistQuietly(lasting, since: before) }
        recordHistory(events, now: now)
        apply(events, now: now)
        settle(now: now)
    }
}
