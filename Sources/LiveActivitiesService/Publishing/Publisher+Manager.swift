import ActivityModel
import DBus

/// What depends on every activity: the manager's CompactText, ActiveCount,
/// NotificationServer and StorageStatus, the tray item and the MPRIS player, and the pace at
/// which they settle (the core settles them with the one timer and focus: `ActivityService+Rounds`).
extension Publisher {
    /// Whether the round just published settles what depends on every activity now: once per
    /// publishing round, and under a flood at most once per `settleInterval` (on the monotonic
    /// clock, so a wall-clock step cannot hold it back), so a flood of updates pays for them
    /// 20 times a second, not once per update. When not now, a settling is armed for the end
    /// of the interval (`PublisherHooks.settleDue`), unless one already is.
    func settlesNow() -> Bool {
        guard !rounds.settlePending else { return false }
        rounds.settlePending = true
        let elapsed = clock.monotonicNow - rounds.lastSettle
        if elapsed >= Self.settleInterval {
            rounds.settlePending = false
            rounds.lastSettle = clock.monotonicNow
            return true
        }
        clock.wake(afterSeconds: Self.settleInterval - elapsed) { [weak self] in self?.settleRound() }
        return false
    }

    /// The shortest time between two settlings under a flood of calls.
    static let settleInterval = 0.05

    private func settleRound() {
        rounds.settlePending = false
        rounds.lastSettle = clock.monotonicNow
        hooks.settleDue()
    }

    /// Every activity of `view` re-read (a new server, new kinds, cards back on): one render each.
    func refreshAll(in view: RoundView) {
        for activity in view.activities { refresh(activity.id.rawValue, alert: nil, in: view) }
    }

    /// Announces the manager's properties that changed, from the values computed here (the
    /// compact text comes from the round's renders and serves the tray too) and `storageStatus`.
    func refreshManager(in view: RoundView, storageStatus: String) {
        let compact = view.compactText
        let values: [String: DBusValue] = ["CompactText": .string(compact), "ActiveCount": .uint32(UInt32(view.activeCount)),
                                           "NotificationServer": .string(notificationServer),
                                           "StorageStatus": .string(storageStatus)]
        let changed = values.filter { publishedManager[$0.key] != $0.value }
        publishedManager = values
        if !changed.isEmpty {
            server.emitPropertiesChanged(path: BusNames.managerPath, interface: BusNames.managerInterface, values: changed)
        }
        tray?.update(CardComposer.tray(live: view.live, compactText: compact))
        mediaPlayer?.update(view.mediaPlayerState)
    }
}
