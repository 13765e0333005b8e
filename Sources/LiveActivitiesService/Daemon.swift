import ActivityFiles
import ActivityModel
import DBus
import Dispatch
import FoundationEssentials
import Glibc
import KDEJobs
import MPRIS
import Notifications
import Persistence
import Tray

/// Puts the daemon together: lock the state directory, connect, export the manager, request
/// the bus name, restore the state; run the loop until SIGTERM, SIGINT or the bus goes away
/// (then exit non-zero).
public enum Daemon {
    public static let usage = """
    Usage: liveactivityd [--help] [--version]

    The LiveActivities daemon: serves \(BusNames.busName) on the session bus
    ($DBUS_SESSION_BUS_ADDRESS) and shows one persistent notification per activity.
    State: $XDG_STATE_HOME/liveactivities   Kinds: $XDG_CONFIG_HOME/liveactivities/kinds
    Settings: $XDG_CONFIG_HOME/liveactivities/liveactivityd.conf (key = value; see README)
    Server table overrides: $XDG_CONFIG_HOME/liveactivities/servers.conf
    Set LIVEACTIVITIES_NO_CARDS=1 to run without notifications (compact view and bus only).
    """

    /// Runs the daemon; returns the process exit status.
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") { print(usage); return 0 }
        if arguments.contains("--version") { print("liveactivityd \(LiveActivitiesVersion.current)"); return 0 }
        if let unknown = arguments.first(where: { $0.hasPrefix("-") }) {
            Log.error("unknown option \(unknown); see --help")
            return 2
        }
        do {
            return try run(environment: environment)
        } catch {
            Log.error("\(error.message)")
            return 1
        }
    }

    /// The order keeps two promises: nothing in the state directory is read or written before
    /// the state lock is held and the bus name is ours (so a second daemon, on this bus or
    /// another, touches nothing), and the manager object is exported before the name is
    /// requested (DESIGN.md). Restored activities are exported right after the name, before
    /// the loop dispatches the first call, so no client sees the manager without them.
    private static func run(environment: [String: String]) throws(DBusError) -> Int32 {
        let executable = RunningExecutable.path
        let paths = DaemonPaths.resolve(environment: environment, executable: executable)
        let lock: StateLock?
        var lockProblem: String?
        do {
            lock = try StateLock(directory: paths.stateDirectory)
        } catch {
            guard case .unusable(_, let reason) = error else {
                Log.error("\(error)")
                return 1
            }
            Log.error("\(error); serving what was saved, refusing every change")
            // Nothing can be written there safely, by this daemon or another: serve, refusing changes.
            lock = nil
            lockProblem = reason
        }
        let loop: EventLoop
        loop = try EventLoop()
        let connection = try DBusConnection.sessionBus()
        connection.attach(to: loop)
        let exit = ExitStatus()
        connection.onDisconnect = {
            Log.error("the session bus went away; exiting with status 1")
            exit.code = 1
            loop.stop()
        }
        let server = DBusObjectServer(connection: connection)
        let config = DaemonConfig.load(path: paths.configFile) { Log.error($0) }
        let cardsOff = environment["LIVEACTIVITIES_NO_CARDS"].map { !$0.isEmpty && $0 != "0" } ?? !config.cards
        let presenter = cardsOff ? nil : CardPresenter(appName: "Live Activities",
                                                       minimumInterval: config.minimumNotifyInterval,
                                                       profileOverrides: loadProfileOverrides(paths.serverProfilesFile))
        // The service paces routine cards as the presenter does, so a flood of updates does not
        // wake the notification thread once per update, only when a card is due.
        let service = ActivityService(loop: loop, server: server, paths: paths, presenter: presenter, limits: config.limits,
                                      cardInterval: presenter == nil ? 0 : config.minimumNotifyInterval,
                                      publishInterval: Publisher.settleInterval)
        service.settings.lockScreenPrivacy = config.lockScreen
        if let lockProblem { service.refuseChanges(because: lockProblem) }
        connectPresenter(presenter, to: service, loop: loop)
        if config.kdeJobs { service.attachJobs(KDEJobMirror(connection: connection)) }
        service.settings.callerApps = CallerApps(connection: connection)
        service.focus.attach(config: config, connection: connection, stateDirectory: paths.stateDirectory, environment: environment)
        try service.exportManager()
        // Before the name: a client that sees the name may add a kind file at once.
        service.watchKindDirectories()

        let reply = try connection.requestName(BusNames.busName, flags: [.doNotQueue])
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            Log.error("\(BusNames.busName) is already owned by another liveactivityd on this bus; "
                      + "this one exits without touching \(paths.stateDirectory)")
            return 1
        }
        // The tray item comes up with the name, as before; restoring updates its label.
        if config.tray { service.publisher.attachTray(StatusNotifierItem.start(for: service, connection: connection)) }
        service.restoreState()
        if config.mpris { service.publisher.attachMediaPlayer(MediaPlayer.start(for: service, connection: connection)) }
        service.push.start(config.push, paths: paths)
        presenter?.start()
        Log.info("serving \(BusNames.busName) as \(connection.uniqueName)")
        let signals = stopOnSignals(loop)
        loop.run()
        signals.forEach { $0.cancel() }
        service.durability.flush()
        service.focus.releaseDesktop()
        presenter?.stop()
        withExtendedLifetime(lock) {}
        return exit.code
    }

    /// The user's corrections to the server table; a bad file is reported and ignored.
    private static func loadProfileOverrides(_ path: String) -> ProfileOverrides {
        do {
            return try ProfileOverrides.load(path: path)
        } catch {
            Log.error("\(path): \(error); using the built-in server table")
            return .none
        }
    }

    /// Presenter callbacks arrive on its own thread: each one is posted to the loop.
    private static func connectPresenter(_ presenter: CardPresenter?, to service: ActivityService, loop: EventLoop) {
        guard let presenter else { return }
        let target = LoopBound(service)
        let remote = loop.remote
        presenter.onAction = { id, key in remote.post { target.value.handleAction(id: id, key: key) } }
        presenter.onClosedByUser = { id in remote.post { target.value.handleClosedByUser(id: id) } }
        presenter.onServerChanged = { _ in remote.post { target.value.serverChanged() } }
        presenter.onNotificationID = { id, nid in remote.post { target.value.notificationIDChanged(id: id, notificationID: nid) } }
    }

    /// SIGTERM and SIGINT stop the loop (state is already on disk after every change).
    private static func stopOnSignals(_ loop: EventLoop) -> [DispatchSourceSignal] {
        let remote = loop.remote
        return [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { remote.stop() }
            source.resume()
            return source
        }
    }
}

/// The daemon's exit status, set by the disconnect handler: non-zero when the bus went away,
/// so `Restart=on-failure` starts it again.
private final class ExitStatus {
    var code: Int32 = 0
}
