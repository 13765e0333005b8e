import ActivityFiles
import ActivityModel
import DBus
import Idle
import Notifications
import Persistence
import PushLink

/// The daemon's core, as thin orchestration: a call is decoded, the model (the registry)
/// decides, the change is persisted, the caller gets the reply, and what happened is
/// published afterwards by the `Publisher` (signals, objects, cards, KDE jobs, tray), which
/// holds all the state of publishing. Each step has its own file: start-up (`+Startup`), the
/// calls (`+Calls`, each one `transact` in `+Transact`), persistence (`Durability`), the reads
/// of one moment (`+ReadView`), each publishing round and what settles after it (`+Rounds`),
/// the one timer (`+Manager`), what the notification side reports back (`+Cards`). It lives
/// on the event loop's thread.
public final class ActivityService {
    /// The loop, the bus's object server, the clock and the kind directories' watch.
    let environment: ServiceEnvironment
    /// The store and the fsync batch: where every change is written (`Durability`).
    let durability: Durability
    /// The model. It holds the one kind catalog (replaced when kind files change,
    /// `KindDirectoryWatch`) and the one set of limits; the service reads them from it.
    var registry: ActivityRegistry
    /// What the world sees of the activities, and all the state that needs.
    let publisher: Publisher
    /// The one timer, the wall clock's offset a step is measured against, and the publishing rounds' queue.
    let scheduler: TickScheduler
    /// Push over MQTT, and all its state.
    let push: PushCoordinator
    /// Focus that quiets the desktop and idle-aware sessions, and all its state.
    let focus: FocusCoordinator
    /// What the daemon sets once: the lock-screen privacy, and how callers' applications are known.
    var settings = ServiceSettings()

    public init(loop: EventLoop, server: DBusObjectServer, paths: DaemonPaths, presenter: CardSink?,
                limits: Limits = Limits(), clock: ServiceClock? = nil, cardInterval: Double = 0,
                publishInterval: Double = 0) {
        let clock = clock ?? LoopClock(loop: loop)
        environment = ServiceEnvironment(loop: loop, server: server, clock: clock,
                                         kindWatch: KindDirectoryWatch(directories: paths.kindDirectories))
        let link = ServiceLink()
        durability = Durability(store: StateStore(paths: paths), loop: loop, clock: clock,
                                onStatusChange: { [link] in link.service?.publishStorageStatus() },
                                historyEntry: { [link] entry in link.service?.focus.historyWithAwayTime(entry) ?? entry })
        let catalog = KindCatalog.load(directories: paths.kindDirectories)
        for problem in catalog.problems { Log.error("kind file \(problem.file): \(problem.message)") }
        registry = ActivityRegistry(catalog: catalog, limits: limits, idSeed: UInt64.random(in: 1...UInt64.max))
        let scopedReads = ScopedReads()
        publisher = Publisher(hooks: PublisherHooks(serving: link, scopedReads: scopedReads), loop: loop, server: server,
                              clock: clock, presenter: presenter, cardInterval: cardInterval, publishInterval: publishInterval)
        scheduler = TickScheduler(clock: clock)
        push = PushCoordinator(hooks: PushHooks(serving: link), environment: environment)
        focus = FocusCoordinator(hooks: FocusHooks(serving: link), environment: environment)
        link.service = self
        loop.onWallClockStep = { [weak self] in self?.wallClockStepped() }
        server.readScope = { [link, scopedReads] reads in
            guard let service = link.service else { return reads() }
            scopedReads.view = service.readView()
            defer { scopedReads.view = nil }
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
    var storageStatus: String { durability.store.status }
    /// The whole state, for a full save.
    var fullState: PersistedState {
        PersistedState(registry: registry.snapshot, notificationIDs: publisher.notificationIDs)
    }
    var notificationServer: String { publisher.notificationServer }
    /// The manager's properties as last announced (read by tests).
    var publishedManager: [String: DBusValue] { publisher.publishedManager }

    /// The publisher's pace, as the tests name it: the shortest time between two settlings,
    /// and the rounds per interval that run at once (`Publisher+Manager`, `Publisher+Rounds`).
    static var settleInterval: Double { Publisher.settleInterval }
    static var publishBurst: Int { RoundQueue.burst }

    /// Runs a model call, turning its typed error into the D-Bus error of the contract.
    func mapped<T>(_ body: () throws(ActivityError) -> T) throws(DBusError) -> T {
        do {
            return try body()
        } catch {
            throw DBusError(error)
        }
    }
}
