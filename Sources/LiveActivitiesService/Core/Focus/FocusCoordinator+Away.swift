import ActivityModel
import DBus
import Idle

/// Time away: a running pausing session pauses when the user goes idle; when they are back its
/// card asks whether that time counts ("Keep away time", "Discard away time"); the history
/// entry of an ended session carries the time away it discarded.
extension FocusCoordinator {
    /// The idle source says the user has been idle `idleSeconds`: every running pausing session pauses.
    func userWentIdle(_ idleSeconds: Double) {
        guard let support else { return }
        support.watching = .nothing
        let now = environment.clock.now
        for activity in runningIdlePausers() {
            let id = activity.id.rawValue
            do throws(DBusError) {
                try hooks.pause(id, now)
            } catch {
                Log.warning("could not pause \(id) while the user is away: \(error)")
                continue
            }
            var entry = support.ledger[id] ?? AwayLedger.Entry()
            entry.pending = .init(idleSince: max(activity.startedAt, now - idleSeconds), pausedAt: now, backAt: nil)
            support.ledger.set(id, entry)
            Log.info("\(id) paused: the user has been idle \(Int(saturating: idleSeconds)) s")
        }
        settle(now: now)
    }

    /// The user is back: each session paused for idleness pops up its card with the choice.
    func userCameBack() {
        guard let support else { return }
        hooks.publishNow()  // events already queued go out before the alerts raised here
        support.watching = .nothing
        let now = environment.clock.now
        var alerts: [ActivityEvent] = []
        for id in support.ledger.pendingIDs {
            guard var entry = support.ledger[id], var pending = entry.pending, pending.backAt == nil,
                  let activity = hooks.activity(id) else { continue }
            pending.backAt = now
            entry.pending = pending
            support.ledger.set(id, entry)
            let minutes = Int(saturating: (now - pending.idleSince) / 60)
            Log.info("\(id): the user is back after \(minutes) min away; asking whether that time counts")
            alerts.append(.alert(activity.id, Alert(title: "Welcome back",
                                                    body: "You were away \(minutes) min: keep that time in the session, or discard it?")))
        }
        hooks.announce(alerts, now)
        settle(now: now)
    }

    /// The buttons a session waiting for the user's choice shows first.
    func awayButtons(_ id: String) -> [CardButton] {
        guard support?.ledger[id]?.pending != nil else { return [] }
        return [CardButton(key: FocusSupport.keepKey, label: FocusSupport.keepLabel),
                CardButton(key: FocusSupport.discardKey, label: FocusSupport.discardLabel)]
    }

    /// Carries out "Keep away time" or "Discard away time" (card or panel); false when `key`
    /// is neither, so the caller handles it as any other button.
    func chooseAwayTime(id: String, key: String, now: Double) throws(DBusError) -> Bool {
        guard key == FocusSupport.keepKey || key == FocusSupport.discardKey else { return false }
        guard let support, var entry = support.ledger[id], let pending = entry.pending else {
            throw .invalidArgs("action \"\(key)\": activity \"\(id)\" is not waiting for a choice about time away")
        }
        let keep = key == FocusSupport.keepKey
        guard let awaySeconds = try hooks.resumeAfterAway(id, pending.idleSince, keep, key, now) else { return true }
        entry.pending = nil
        entry.discardedSeconds += awaySeconds
        support.ledger.set(id, entry)
        Log.info("\(id): time away \(keep ? "kept" : "discarded") (\(Int(saturating: awaySeconds)) s discarded)")
        return true
    }

    /// The history entry of an ended session, with the time away it discarded; a session that
    /// ends while it waits for the choice discards the time away. The ledger entry goes at the
    /// next settling round (`settleAway`), once the End is written.
    func historyWithAwayTime(_ entry: HistoryEntry) -> HistoryEntry {
        guard let support, let away = support.ledger[entry.id] else { return entry }
        var result = entry
        var discarded = away.discardedSeconds
        if let pending = away.pending {
            let ranWhileAway = min(max(0, pending.pausedAt - pending.idleSince), result.activeSeconds)
            result.activeSeconds -= ranWhileAway
            discarded += max(0, entry.endedAt - pending.idleSince)
        }
        result.awaySeconds = discarded
        return result
    }
}
