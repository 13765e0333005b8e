import ActivityFiles
import ActivityModel
import DBus
import Idle
import Notifications
import Quiet

/// Focus that quiets the desktop and idle-aware sessions (issue 21), as hooks of the service:
/// after every settling round the desktop's Do Not Disturb follows the live quieting sessions
/// and the idle source watches for what the live sessions need; a session paused because the
/// user left offers "Keep away time" and "Discard away time"; the history entry of an ended
/// session carries the time away it discarded.
extension ActivityService {
    /// Turns the issue 21 behaviour on, with the desktop's own Do Not Disturb controllers and
    /// idle sources (`WAYLAND_DISPLAY` from `environment` says where the compositor is).
    public func attachFocus(config: DaemonConfig, connection: DBusConnection, stateDirectory: String,
                            environment: [String: String]) {
        attachFocus(config: config, connection: connection, stateDirectory: stateDirectory,
                    waylandDisplay: environment["WAYLAND_DISPLAY"], makeController: DoNotDisturbControllers.make)
    }

    /// As above, with the controllers `makeController` gives (tests pass recording ones), the
    /// Wayland display to ask (nil: none) and the idle sources' waits (tests shorten them).
    func attachFocus(config: DaemonConfig, connection: DBusConnection, stateDirectory: String,
                     waylandDisplay: String? = nil, idleTuning: IdleTuning = IdleTuning(),
                     makeController: @escaping (DoNotDisturbChoice) -> any DoNotDisturb) {
        let quieter = config.quietDesktop ? DesktopQuieter(stateDirectory: stateDirectory, makeController: makeController) : nil
        let loop = self.loop
        let sources = IdleSources(connection: connection, clock: clock, tuning: idleTuning) {
            WaylandIdleSource.open(display: waylandDisplay, loop: loop)
        }
        focus = FocusSupport(quieter: quieter, idlePauseAfter: config.idlePauseAfter, stateDirectory: stateDirectory) {
            sources.available(excluding: $0)
        }
        guard config.idlePauseAfter > 0 else { return }
        focus?.ownerWatch = IdleSources.watchOwners(on: connection) { [weak self] in self?.idleSourceChanged() }
        pickIdleSource()
    }

    /// An idle monitor came, went or was replaced (a shell restart drops its watches): the
    /// watches are set again on whatever serves now.
    func idleSourceChanged() {
        guard let focus else { return }
        focus.unusableSources = []
        replaceIdleSource(focus)
    }

    /// `source` cannot tell idleness here after all: the next one serves.
    private func idleSourceUnusable(_ source: any IdleSource) {
        guard let focus, focus.idleSource === source else { return }
        focus.unusableSources.insert(source.kind)
        replaceIdleSource(focus)
    }

    private func replaceIdleSource(_ focus: FocusSupport) {
        focus.idleSource?.stopWatching()
        focus.idleSource = nil
        focus.watching = .nothing
        pickIdleSource()
        settleFocus(now: clock.now)
    }

    /// Chooses the idle source now, and announces it (the manager's `IdleSource` property).
    private func pickIdleSource() {
        guard let focus else { return }
        let source = focus.findIdleSource(focus.unusableSources)
        source?.onUnusable = { [weak self, weak source] in
            guard let self, let source else { return }
            self.idleSourceUnusable(source)
        }
        focus.idleSource = source
        focus.idleSourceMissing = source == nil
        Log.info("idle: \(source?.name ?? "no idle source")")
        if focus.announcedSource != idleSourceName {
            focus.announcedSource = idleSourceName
            server.emitPropertiesChanged(path: BusNames.managerPath, interface: BusNames.managerInterface, names: ["IdleSource"])
        }
    }

    /// The manager's `IdleSource` property: what tells the daemon the user is away (empty: nothing does).
    var idleSourceName: String { focus?.idleSource?.name ?? "" }

    /// The Do Not Disturb of the notification server in use (nil: none we can drive).
    var doNotDisturbChoice: DoNotDisturbChoice? {
        guard let info = publisher.serverInfo else { return nil }
        return DoNotDisturbChoice.forServer(named: info.name, vendor: info.vendor)
    }

    /// Waits until the Do Not Disturb steps asked for so far have run (tests, and exit).
    public func drainDoNotDisturb() { focus?.quieter?.drain() }

    /// At a clean exit: the user's Do Not Disturb goes back (a daemon that is not running must
    /// not keep anyone silenced); the next start turns it on again if a session is still live.
    public func releaseDesktop() {
        guard let quieter = focus?.quieter else { return }
        quieter.setQuiet(false, choice: nil, now: clock.now)
        quieter.drain()
    }

    /// Called at the end of every settling round (`settle`).
    func settleFocus(now: Double) {
        guard let focus else { return }
        if let quieter = focus.quieter {
            let quiet = registry.activities.contains { catalog.kinds[$0.kind]?.quietRule.quiets($0) == true }
            quieter.setQuiet(quiet, choice: doNotDisturbChoice, now: now)
        }
        settleAway(focus)
        guard focus.idlePauseAfter > 0 else { return }
        let waiting = focus.ledger.pendingIDs.contains { focus.ledger[$0]?.pending?.backAt == nil }
        let wanted: FocusSupport.Watch = waiting ? .userReturn : runningIdlePausers().isEmpty ? .nothing : .idle
        guard wanted != focus.watching else { return }
        focus.idleSource?.stopWatching()
        focus.watching = wanted
        if wanted == .nothing { return }
        if focus.idleSource == nil, !focus.idleSourceMissing { pickIdleSource() }
        guard let source = focus.idleSource else {
            focus.watching = .nothing
            return
        }
        switch wanted {
        case .idle:
            source.watchForIdle(threshold: focus.idlePauseAfter) { [weak self] idleSeconds in self?.userWentIdle(idleSeconds) }
        case .userReturn:
            source.watchForReturn { [weak self] in self?.userCameBack() }
        case .nothing:
            break
        }
    }

    /// Live, running sessions of kinds that pause when idle.
    private func runningIdlePausers() -> [Activity] {
        registry.activities.filter { activity in
            catalog.kinds[activity.kind]?.pausesWhenIdle == true && activity.status == .active
                && activity.timer?.isRunning == true
        }
    }

    /// A pending pause whose session was resumed another way (Resume, the CLI) is settled as
    /// such: the pause was time away, the running time before it counted.
    private func settleAway(_ focus: FocusSupport) {
        focus.ledger.keepOnly(Set(registry.activities.filter(\.isLive).map(\.id.rawValue)))
        for id in focus.ledger.pendingIDs {
            guard let activity = registry.activity(id), activity.isLive else { continue }
            guard activity.status != .paused, var entry = focus.ledger[id], let pending = entry.pending else { continue }
            entry.pending = nil
            entry.discardedSeconds += max(0, activity.updatedAt - pending.pausedAt)
            focus.ledger.set(id, entry)
        }
    }

    /// The idle source says the user has been idle `idleSeconds`: every running pausing session pauses.
    func userWentIdle(_ idleSeconds: Double) {
        guard let focus else { return }
        focus.watching = .nothing
        let now = clock.now
        for activity in runningIdlePausers() {
            let id = activity.id.rawValue
            do throws(DBusError) {
                try transact(at: now) { (now: Double) throws(ActivityError) in ((), try registry.pause(id: id, now: now)) }
            } catch {
                Log.warning("could not pause \(id) while the user is away: \(error)")
                continue
            }
            var entry = focus.ledger[id] ?? AwayLedger.Entry()
            entry.pending = .init(idleSince: max(activity.startedAt, now - idleSeconds), pausedAt: now, backAt: nil)
            focus.ledger.set(id, entry)
            Log.info("\(id) paused: the user has been idle \(Int(saturating: idleSeconds)) s")
        }
        settleFocus(now: now)
    }

    /// The user is back: each session paused for idleness pops up its card with the choice.
    func userCameBack() {
        guard let focus else { return }
        publishNow()  // events already queued go out before the alerts raised here
        focus.watching = .nothing
        let now = clock.now
        var alerts: [ActivityEvent] = []
        for id in focus.ledger.pendingIDs {
            guard var entry = focus.ledger[id], var pending = entry.pending, pending.backAt == nil,
                  let activity = registry.activity(id) else { continue }
            pending.backAt = now
            entry.pending = pending
            focus.ledger.set(id, entry)
            let minutes = Int(saturating: (now - pending.idleSince) / 60)
            Log.info("\(id): the user is back after \(minutes) min away; asking whether that time counts")
            alerts.append(.alert(activity.id, Alert(title: "Welcome back",
                                                    body: "You were away \(minutes) min: keep that time in the session, or discard it?")))
        }
        announce(alerts, in: readView(at: now))
        settleFocus(now: now)
    }

    /// The buttons a session waiting for the user's choice shows first.
    func awayButtons(_ id: String) -> [CardButton] {
        guard focus?.ledger[id]?.pending != nil else { return [] }
        return [CardButton(key: FocusSupport.keepKey, label: FocusSupport.keepLabel),
                CardButton(key: FocusSupport.discardKey, label: FocusSupport.discardLabel)]
    }

    /// Carries out "Keep away time" or "Discard away time" (card or panel); false when `key`
    /// is neither, so the caller handles it as any other button.
    func chooseAwayTime(id: String, key: String, now: Double) throws(DBusError) -> Bool {
        guard key == FocusSupport.keepKey || key == FocusSupport.discardKey else { return false }
        guard let focus, var entry = focus.ledger[id], let pending = entry.pending else {
            throw .invalidArgs("action \"\(key)\": activity \"\(id)\" is not waiting for a choice about time away")
        }
        let keep = key == FocusSupport.keepKey
        let awaySeconds = try transact(at: now) { (now: Double) throws(ActivityError) -> (result: Double?, events: [ActivityEvent]) in
            let resumed = try registry.resumeAfterAway(id: id, idleSince: pending.idleSince, keepAwayTime: keep, now: now)
            guard let activityID = registry.activity(id)?.id else { return (nil, []) }
            return (resumed.awaySeconds, [.actionInvoked(activityID, action: key)] + resumed.events)
        }
        guard let awaySeconds else { return true }
        entry.pending = nil
        entry.discardedSeconds += awaySeconds
        focus.ledger.set(id, entry)
        Log.info("\(id): time away \(keep ? "kept" : "discarded") (\(Int(saturating: awaySeconds)) s discarded)")
        return true
    }

    /// The history entry of an ended session, with the time away it discarded; a session that
    /// ends while it waits for the choice discards the time away. The ledger entry goes at the
    /// next settling round (`settleAway`), once the End is written.
    func historyWithAwayTime(_ entry: HistoryEntry) -> HistoryEntry {
        guard let focus, let away = focus.ledger[entry.id] else { return entry }
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

    /// The alert options while the desktop is quiet by a Do Not Disturb that lets critical
    /// notifications through (GNOME, Plasma): critical, so it still shows. On dunst, paused
    /// shows nothing whatever the urgency; the focus alert comes as the pause lifts.
    func quietAware(_ alert: CardAlert) -> CardAlert {
        guard focus?.quieter?.quietBy?.showsCritical == true else { return alert }
        var urgent = alert
        urgent.breaksThrough = true
        return urgent
    }
}
