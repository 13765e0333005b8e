import ActivityModel

/// After every settling round: the desktop's Do Not Disturb follows the live quieting sessions,
/// pauses resumed another way are settled, and the idle source watches for what the live
/// sessions need (the user going idle, or coming back).
extension FocusCoordinator {
    /// Called at the end of every settling round (`ActivityService.settle`).
    func settle(now: Double) {
        guard let support else { return }
        if let quieter = support.quieter {
            let catalog = hooks.catalog()
            let quiet = hooks.activities().contains { catalog.kinds[$0.kind]?.quietRule.quiets($0) == true }
            quieter.setQuiet(quiet, choice: doNotDisturbChoice, now: now)
        }
        settleAway(support)
        guard support.idlePauseAfter > 0 else { return }
        let waiting = support.ledger.pendingIDs.contains { support.ledger[$0]?.pending?.backAt == nil }
        let wanted: FocusSupport.Watch = waiting ? .userReturn : runningIdlePausers().isEmpty ? .nothing : .idle
        guard wanted != support.watching else { return }
        support.idleSource?.stopWatching()
        support.watching = wanted
        if wanted == .nothing { return }
        if support.idleSource == nil, !support.idleSourceMissing { pickIdleSource() }
        guard let source = support.idleSource else {
            support.watching = .nothing
            return
        }
        switch wanted {
        case .idle:
            source.watchForIdle(threshold: support.idlePauseAfter) { [weak self] idleSeconds in self?.userWentIdle(idleSeconds) }
        case .userReturn:
            source.watchForReturn { [weak self] in self?.userCameBack() }
        case .nothing:
            break
        }
    }

    /// Live, running sessions of kinds that pause when idle.
    func runningIdlePausers() -> [Activity] {
        let catalog = hooks.catalog()
        return hooks.activities().filter { activity in
            catalog.kinds[activity.kind]?.pausesWhenIdle == true && activity.status == .active
                && activity.timer?.isRunning == true
        }
    }

    /// A pending pause whose session was resumed another way (Resume, the CLI) is settled as
    /// such: the pause was time away, the running time before it counted.
    private func settleAway(_ support: FocusSupport) {
        support.ledger.keepOnly(Set(hooks.activities().filter(\.isLive).map(\.id.rawValue)))
        for id in support.ledger.pendingIDs {
            guard let activity = hooks.activity(id), activity.isLive else { continue }
            guard activity.status != .paused, var entry = support.ledger[id], let pending = entry.pending else { continue }
            entry.pending = nil
            entry.discardedSeconds += max(0, activity.updatedAt - pending.pausedAt)
            support.ledger.set(id, entry)
        }
    }
}
