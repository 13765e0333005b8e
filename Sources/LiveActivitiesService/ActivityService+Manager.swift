import ActivityModel
import DBus

/// What depends on every activity: the manager's CompactText, ActiveCount,
/// NotificationServer and StorageStatus, the tray item, and the one timer of all activities.
extension ActivityService {
    /// Recomputed once per publishing round, and under a flood at most once per
    /// `settleInterval` (on the monotonic clock, so a wall-clock step cannot hold it back): a
    /// flood of updates pays for them 20 times a second, not once per update.
    /// `view`: the round just published, whose renders a settling at once reuses.
    func settleSoon(_ view: RoundView) {
        guard !rounds.settlePending else { return }
        rounds.settlePending = true
        let elapsed = clock.monotonicNow - rounds.lastSettle
        if elapsed >= Self.settleInterval {
            rounds.settlePending = false
            rounds.lastSettle = clock.monotonicNow
            settle(in: view)
        } else {
            clock.wake(afterSeconds: Self.settleInterval - elapsed) { [weak self] in self?.settleRound() }
        }
    }

    /// The shortest time between two settlings under a flood of calls.
    static let settleInterval = 0.05

    private func settleRound() {
        rounds.settlePending = false
        rounds.lastSettle = clock.monotonicNow
        settle(in: readView())
    }

    /// The manager's properties, the tray and the timer, from the renders of `view` (a tick, a
    /// publishing round, a new server, new kinds).
    func settle(in view: RoundView) {
        refreshManager(in: view)
        reschedule(in: view)
        settleFocus(now: view.now)
    }

    /// Every activity re-read at `now` (a new server, new kinds, a restart, cards back on),
    /// then the manager's properties, the tray and the timer: one render each.
    func refreshAll(now: Double) {
        let view = readView(at: now)
        for activity in registry.activities { refresh(activity.id.rawValue, alert: nil, in: view) }
        settle(in: view)
    }

    /// Announces the manager's properties that changed, from the values computed here (the
    /// compact text comes from the round's renders and serves the tray too).
    func refreshManager(in view: RoundView) {
        let compact = view.compactText
        let values: [String: DBusValue] = ["CompactText": .string(compact), "ActiveCount": .uint32(UInt32(activeCount)),
                                           "NotificationServer": .string(notificationServer),
                                           "StorageStatus": .string(store.status)]
        let changed = values.filter { publishedManager[$0.key] != $0.value }
        publishedManager = values
        if !changed.isEmpty {
            server.emitPropertiesChanged(path: BusNames.managerPath, interface: BusNames.managerInterface, values: changed)
        }
        tray?.update(CardComposer.tray(live: view.live, compactText: compact))
    }

    /// Announces a change of `StorageStatus` (a write failed, or works again) at once.
    func publishStorageStatus() {
        guard publishedManager["StorageStatus"] != .string(store.status) else { return }
        refreshManager(in: readView())
    }

    /// Arms the one timer at the model's next deadline (none when nothing is live), from the
    /// bus's texts (with seconds: a card without them changes less often, never more).
    func reschedule(in view: RoundView) {
        scheduler.schedule(at: view.nextDeadline) { [weak self] in self?.tick() }
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
        let mark = registry.beginChange()
        let utcOffset = clock.utcOffset(at: now)
        let events = registry.tick(now: now, timeZoneOffset: utcOffset, style: .standard)
        registry.endChange()  // time's changes stand even when they cannot be written now
        logDroppedScheduledUpdates()
        let lasting = events.filter { if case .rendered = $0 { return false } else { return true } }
        if !lasting.isEmpty { persistQuietly(changes(lasting, since: mark), durable: true) }
        recordHistory(events, now: now)
        let view = readView(at: now, utcOffset: utcOffset)
        apply(events, in: view)
        settle(in: view)
    }
}
