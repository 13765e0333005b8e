import ActivityModel
import DBus
import Notifications

/// The daemon's core, as thin orchestration: a call is decoded, the model (the registry)
/// decides, the change is persisted, the caller gets the reply, and what happened is
/// published afterwards. Each step has its own file: start-up (`+Startup`), the calls
/// (`+Calls`, each one `transact` in `+Transact`), persistence (`+Commit`), signals
/// (`+Publishing`), one activity's views (`+Views`, from one `RoundView` per call or round,
/// composed by `CardComposer`), the card's pace (`+CardPacing`), the manager's properties and
/// the one timer (`+Manager`), what the notification side reports back (`+Cards`). It lives on the event loop's thread; the
/// notification server is only reached through its `CardSink`.
public final class ActivityService {
    let loop: EventLoop
    let server: DBusObjectServer
    let store: StateStore
    /// Where cards go: the presenter in the daemon, a recorder in tests; nil: no cards.
    let presenter: CardSink?
    /// At most one routine card per activity per this many seconds goes to `presenter`
    /// (`ActivityService+CardPacing`); 0: every card at once (tests that read each decision).
    let cardInterval: Double
    /// The shortest time between two publishing rounds under a flood (`+Publishing`); 0: a
    /// round after every batch of messages (tests that read each round).
    let publishInterval: Double
    /// Wall clock, zone, monotonic time and wake-ups; read where a step needs the moment (a call
    /// or tick may read it more than once).
    let clock: ServiceClock
    let kindWatch: KindDirectoryWatch
    /// The model. It holds the one kind catalog (replaced when kind files change,
    /// `KindDirectoryWatch`) and the one set of limits; the service reads them from it.
    var registry: ActivityRegistry
    /// What the service keeps per activity beyond the model: one record each.
    var records: [String: ActivityRecord] = [:]
    /// The manager's properties as last announced.
    var publishedManager: [String: DBusValue] = [:]
    /// The KDE job backend, under Plasma (`DaemonConfig.kdeJobs`); nil when switched off.
    var jobs: KDEJobMirror?
    /// Publishing rounds, the settling of manager properties and the fsync batch.
    var rounds = PublishingRounds()
    let scheduler: TickScheduler
    /// The tray item, when the config asks for one; kept up to date with the compact text.
    var tray: StatusNotifierItem?
    /// Push over MQTT (`ActivityService+Push`); nil when `push-broker` is unset.
    var push: PushState?
    /// The wall clock minus the boot-time clock when last read (`ActivityService+ClockStep`).
    var wallClockOffset: Double?
    /// The moment an ObjectManager report reads all its objects at (`DBusObjectServer.readScope`).
    var scopedReads: RoundView?
    /// Why push is off although `push-broker` is set (it could not be parsed); see `pushStatus`.
    var pushConfigProblem: String?
    /// Focus that quiets the desktop and idle-aware sessions (`+Focus`); nil: neither.
    var focus: FocusSupport?

    public init(loop: EventLoop, server: DBusObjectServer, paths: DaemonPaths, presenter: CardSink?,
                limits: Limits = Limits(), clock: ServiceClock? = nil, cardInterval: Double = 0,
                publishInterval: Double = 0) {
        self.loop = loop
        self.server = server
        self.presenter = presenter
        self.cardInterval = cardInterval
        self.publishInterval = publishInterval
        let clock = clock ?? LoopClock(loop: loop)
        self.clock = clock
        store = StateStore(paths: paths)
        kindWatch = KindDirectoryWatch(directories: paths.kindDirectories)
        let catalog = KindCatalog.load(directories: paths.kindDirectories)
        for problem in catalog.problems { Log.error("kind file \(problem.file): \(problem.message)") }
        registry = ActivityRegistry(catalog: catalog, limits: limits, idSeed: UInt64.random(in: 1...UInt64.max))
        scheduler = TickScheduler(clock: clock)
        loop.onWallClockStep = { [weak self] in self?.wallClockStepped() }
        server.readScope = { [weak self] reads in
            guard let self else { return reads() }
            self.scopedReads = self.readView()
            defer { self.scopedReads = nil }
            reads()
        }
    }

    /// A service on the loop's timers with its own wall clock (the one the loop was made with).
    public convenience init(loop: EventLoop, server: DBusObjectServer, paths: DaemonPaths, presenter: CardSink?,
                            limits: Limits = Limits(), clock wallClock: @escaping () -> Double) {
        self.init(loop: loop, server: server, paths: paths, presenter: presenter, limits: limits,
                  clock: LoopClock(loop: loop, wallClock: wallClock))
    }

    // MARK: What the manager's properties read

    var enabled: Bool { registry.enabled }
    /// `CompactText`, in the standard style like every value on the bus.
    var compactText: String { readView().compactText }

    var activeCount: Int { registry.liveCount }
    var kindNames: [String] { catalog.names }
    /// The kinds, as the registry holds them (the one copy).
    var catalog: KindCatalog { registry.catalog }
    /// The input limits, as the registry holds them (the one copy).
    var limits: Limits { registry.limits }
    /// `StorageStatus`: `ok`, or the last write error and what was set aside at start.
    var storageStatus: String { store.status }
    var notificationServer: String { presenter?.serverInfo?.displayName ?? "" }
    /// How the card renders for the server in use (GNOME Shell's cards show no seconds).
    /// Everything on the bus renders in the standard style, with seconds (DESIGN.md).
    var cardStyle: RenderStyle { RenderStyle(showSeconds: presenter?.profile.showsSeconds ?? true) }

    /// Runs a model call, turning its typed error into the D-Bus error of the contract.
    func mapped<T>(_ body: () throws(ActivityError) -> T) throws(DBusError) -> T {
        do {
            return try body()
        } catch {
            throw Self.busError(error)
        }
    }

    /// The D-Bus error of the contract for a model error.
    static func busError(_ error: ActivityError) -> DBusError {
        DBusError(name: error.name == "InvalidArgs" ? "org.freedesktop.DBus.Error.InvalidArgs" : BusNames.errorPrefix + error.name,
                  message: error.message)
    }
}

/// The bookkeeping of publishing: events waiting for the next round, whether a round, a
/// settling of the manager's properties or an fsync batch is already due, and when the
/// manager's properties last settled (monotonic seconds).
struct PublishingRounds {
    var unpublished: [ActivityEvent] = []
    var publishPending = false
    var settlePending = false
    var lastSettle = -Double.infinity
    /// The current pacing interval of publishing rounds (monotonic seconds) and the rounds run in it.
    var windowStart = -Double.infinity
    var roundsInWindow = 0
    var syncPending = false
}
