import ActivityFiles
import ActivityModel
import DBus
import Idle
import Notifications
import Quiet

/// Focus that quiets the desktop and idle-aware sessions (issue 21), as the core sees it: after
/// every settling round the desktop's Do Not Disturb follows the live quieting sessions and the
/// idle source watches for what the live sessions need (`+Settle`); a session paused because the
/// user left offers "Keep away time" and "Discard away time" (`+Away`). It exists so that all the
/// state of focus (`FocusSupport`, nil until the daemon attaches it) is one value the service
/// owns; it reaches the core only through `FocusHooks`. This part attaches focus and keeps an
/// idle source.
final class FocusCoordinator {
    /// What focus keeps; nil: focus is not attached (most tests), nothing quiets or pauses.
    private(set) var support: FocusSupport?
    let hooks: FocusHooks
    /// The loop, the bus's object server and the clock focus runs on (the service's).
    let environment: ServiceEnvironment

    init(hooks: FocusHooks, environment: ServiceEnvironment) {
        self.hooks = hooks
        self.environment = environment
    }

    /// Turns the issue 21 behaviour on, with the desktop's own Do Not Disturb controllers and
    /// idle sources (`WAYLAND_DISPLAY` from `environment` says where the compositor is).
    func attach(config: DaemonConfig, connection: DBusConnection, stateDirectory: String, environment: [String: String]) {
        attach(config: config, connection: connection, stateDirectory: stateDirectory,
               waylandDisplay: environment["WAYLAND_DISPLAY"], makeController: DoNotDisturbControllers.make)
    }

    /// As above, with the controllers `makeController` gives (tests pass recording ones), the
    /// Wayland display to ask (nil: none) and the idle sources' waits (tests shorten them).
    func attach(config: DaemonConfig, connection: DBusConnection, stateDirectory: String,
                waylandDisplay: String? = nil, idleTuning: IdleTuning = IdleTuning(),
                makeController: @escaping (DoNotDisturbChoice) -> any DoNotDisturb) {
        let quieter = config.quietDesktop ? DesktopQuieter(stateDirectory: stateDirectory, makeController: makeController) : nil
        let loop = environment.loop
        let sources = IdleSources(connection: connection, clock: environment.clock, tuning: idleTuning) {
            WaylandIdleSource.open(display: waylandDisplay, loop: loop)
        }
        support = FocusSupport(quieter: quieter, idlePauseAfter: config.idlePauseAfter, stateDirectory: stateDirectory) {
            sources.available(excluding: $0)
        }
        guard config.idlePauseAfter > 0 else { return }
        support?.ownerWatch = IdleSources.watchOwners(on: connection) { [weak self] in self?.idleSourceChanged() }
        pickIdleSource()
    }

    /// An idle monitor came, went or was replaced (a shell restart drops its watches): the
    /// watches are set again on whatever serves now.
    func idleSourceChanged() {
        guard let support else { return }
        support.unusableSources = []
        replaceIdleSource(support)
    }

    /// `source` cannot tell idleness here after all: the next one serves.
    private func idleSourceUnusable(_ source: any IdleSource) {
        guard let support, support.idleSource === source else { return }
        support.unusableSources.insert(source.kind)
        replaceIdleSource(support)
    }

    private func replaceIdleSource(_ support: FocusSupport) {
        support.idleSource?.stopWatching()
        support.idleSource = nil
        support.watching = .nothing
        pickIdleSource()
        settle(now: environment.clock.now)
    }

    /// Chooses the idle source now, and announces it (the manager's `IdleSource` property).
    func pickIdleSource() {
        guard let support else { return }
        let source = support.findIdleSource(support.unusableSources)
        source?.onUnusable = { [weak self, weak source] in
            guard let self, let source else { return }
            self.idleSourceUnusable(source)
        }
        support.idleSource = source
        support.idleSourceMissing = source == nil
        Log.info("idle: \(source?.name ?? "no idle source")")
        if support.announcedSource != idleSourceName {
            support.announcedSource = idleSourceName
            environment.server.emitPropertiesChanged(path: BusNames.managerPath, interface: BusNames.managerInterface, names: ["IdleSource"])
        }
    }

    /// The manager's `IdleSource` property: what tells the daemon the user is away (empty: nothing does).
    var idleSourceName: String { support?.idleSource?.name ?? "" }

    /// The Do Not Disturb of the notification server in use (nil: none we can drive).
    var doNotDisturbChoice: DoNotDisturbChoice? {
        guard let info = hooks.serverInfo() else { return nil }
        return DoNotDisturbChoice.forServer(named: info.name, vendor: info.vendor)
    }

    /// Waits until the Do Not Disturb steps asked for so far have run (tests, and exit).
    func drainDoNotDisturb() { support?.quieter?.drain() }

    /// At a clean exit: the user's Do Not Disturb goes back (a daemon that is not running must
    /// not keep anyone silenced); the next start turns it on again if a session is still live.
    func releaseDesktop() {
        guard let quieter = support?.quieter else { return }
        quieter.setQuiet(false, choice: nil, now: environment.clock.now)
        quieter.drain()
    }

    /// The alert options while the desktop is quiet by a Do Not Disturb that lets critical
    /// notifications through (GNOME, Plasma): critical, so it still shows. On dunst, paused
    /// shows nothing whatever the urgency; the focus alert comes as the pause lifts.
    func quietAware(_ alert: CardAlert) -> CardAlert {
        guard support?.quieter?.quietBy?.showsCritical == true else { return alert }
        var urgent = alert
        urgent.breaksThrough = true
        return urgent
    }
}
