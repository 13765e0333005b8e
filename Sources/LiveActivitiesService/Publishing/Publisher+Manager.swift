import ActivityModel
import DBus

/// What depends on every activity: the manager's CompactText, ActiveCount,
/// NotificationServer and StorageStatus, the tray item, the MPRIS player, and (asked of the service) the one
/// timer and focus.
extension Publisher {
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
        settle(in: service.readView())
    }

    /// The manager's properties, the tray and the timer, from the renders of `view` (a tick, a
    /// publishing round, a new server, new kinds).
    func settle(in view: RoundView) {
        refreshManager(in: view)
        service.reschedule(in: view)
        service.settleFocus(now: view.now)
    }

    /// Every activity re-read at `now` (a new server, new kinds, a restart, cards back on),
    /// then the manager's properties, the tray and the timer: one render each.
    func refreshAll(now: Double) {
        let view = service.readView(at: now)
        for activity in service.registry.activities { refresh(activity.id.rawValue, alert: nil, in: view) }
        settle(in: view)
    }

    /// Announces the manager's properties that changed, from the values computed here (the
    /// compact text comes from the round's renders and serves the tray too).
    func refreshManager(in view: RoundView) {
        let compact = view.compactText
        let values: [String: DBusValue] = ["CompactText": .string(compact), "ActiveCount": .uint32(UInt32(service.activeCount)),
                                           "NotificationServer": .string(notificationServer),
                                           "StorageStatus": .string(service.storageStatus)]
        let changed = values.filter { publishedManager[$0.key] != $0.value }
        publishedManager = values
        if !changed.isEmpty {
            server.emitPropertiesChanged(path: BusNames.managerPath, interface: BusNames.managerInterface, values: changed)
        }
        tray?.update(CardComposer.tray(live: view.live, compactText: compact))
        mediaPlayer?.update(service.mediaPlayerState(in: view))
    }

    /// Announces a change of `StorageStatus` (a write failed, or works again) at once.
    func publishStorageStatus() {
        guard publishedManager["StorageStatus"] != .string(service.storageStatus) else { return }
        refreshManager(in: service.readView())
    }
}
