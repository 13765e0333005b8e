import ActivityModel
import DBus
import Notifications

/// The daemon's core. Handlers of the manager interface call it; it validates through the
/// model (which changes nothing when it refuses), persists what it acknowledged, then fans
/// the model's events out to signals, properties, the card and the store. It lives on the
/// event loop's thread; the notification server is only ever reached through the presenter.
public final class ActivityService {
    let loop: EventLoop
    let server: DBusObjectServer
    let store: StateStore
    let presenter: CardPresenter?
    let clock: () -> Double
    /// Seconds on a clock that never steps (CLOCK_MONOTONIC), for throttling.
    let monotonicClock: () -> Double
    /// Replaced when kind files change (KindDirectoryWatch).
    var catalog: KindCatalog
    let kindWatch: KindDirectoryWatch
    var registry: ActivityRegistry
    var notificationIDs: [String: UInt32] = [:]
    /// The property values last published per activity object, to emit only what changed.
    var published: [String: [String: DBusValue]] = [:]
    var publishedManager: [String: DBusValue] = [:]
    var exported: Set<String> = []
    var lastCards: [String: Card] = [:]
    /// The last alert of each activity while its text stays on the card.
    var heldAlerts: [String: HeldAlert] = [:]
    /// The KDE job backend, under Plasma (`DaemonConfig.kdeJobs`); nil when switched off.
    var jobs: KDEJobMirror?
    /// Events of acknowledged calls waiting for the next publishing round, and whether it is posted.
    var unpublished: [ActivityEvent] = []
    var publishPending = false
    /// Whether a recomputation of CompactText, ActiveCount and the timer is already due.
    var settlePending = false
    /// When they were last recomputed (`monotonicClock` seconds).
    var lastSettle = -Double.infinity
    /// Whether an fsync of the updates written since the last one is scheduled.
    var syncPending = false
    /// The longest an acknowledged Update waits for its fsync (power loss costs at most this).
    static let syncInterval = 1.0
    /// The shortest time between two such recomputations under a flood of calls.
    static let settleInterval = 0.05
    let scheduler: TickScheduler
    /// The tray item, when the config asks for one; kept up to date with the compact text.
    var tray: StatusNotifierItem?
    let limits: Limits
    /// Push over MQTT (`ActivityService+Push`); nil when `push-broker` is unset.
    var push: PushState?

    public init(loop: EventLoop, server: DBusObjectServer, paths: DaemonPaths, presenter: CardPresenter?,
                limits: Limits = Limits(), clock: @escaping () -> Double = LocalTime.now,
                monotonicClock: @escaping () -> Double = LocalTime.monotonic) {
        self.loop = loop
        self.server = server
        self.presenter = presenter
        self.clock = clock
        self.monotonicClock = monotonicClock
        store = StateStore(paths: paths)
        kindWatch = KindDirectoryWatch(directories: paths.kindDirectories)
        catalog = KindCatalog.load(directories: paths.kindDirectories)
        for problem in catalog.problems { Log.error("kind file \(problem.file): \(problem.message)") }
        registry = ActivityRegistry(catalog: catalog, limits: limits, idSeed: UInt64.random(in: 1...UInt64.max))
        self.limits = limits
        scheduler = TickScheduler(loop: loop)
    }

    // MARK: Start-up

    /// Exports the manager object; call before the bus name is requested (DESIGN.md).
    public func exportManager() throws(DBusError) {
        try server.export(BusNames.managerPath, [ManagerInterface.make(self)])
        server.enableObjectManager(at: BusNames.managerPath)
    }

    /// Reads the saved state (only once the daemon holds the state lock and the bus name, so
    /// a daemon that is not the one serving never reads it), exports the restored activities
    /// and applies what time did while the daemon was down. The loop has not dispatched a
    /// call yet, so no client sees the manager without them.
    public func restoreState() {
        let now = clock()
        if let saved = store.load(now: now) {
            registry = ActivityRegistry(catalog: catalog, limits: limits, snapshot: saved.registry)
            notificationIDs = saved.notificationIDs
            adoptSavedCards()
        }
        for activity in registry.activities { try? exportActivity(activity.id.rawValue) }
        let events = registry.tick(now: now, timeZoneOffset: Self.timeZoneOffset(at: now), style: renderStyle)
        recordHistory(events, now: now)
        apply(events, now: now)
        for activity in registry.activities { refresh(activity.id.rawValue, alert: nil, now: now) }
        do {
            try store.saveAll(fullState)
        } catch {
            Log.error("\(error.description); calls that change something are refused until it can be written")
        }
        refreshManager(now: now)
        reschedule(now: now)
        Log.info("\(registry.activities.count) activities restored, kinds: \(kindNames.joined(separator: ", "))")
    }

    /// `exportManager` then `restoreState`, for a service that requests no name (tests).
    public func exportObjects() throws(DBusError) {
        try exportManager()
        restoreState()
    }

    // MARK: Manager methods

    func start(kind: String, attributes: [String: DBusValue], state: [String: DBusValue],
               options: [String: DBusValue]) throws(DBusError) -> String {
        let request = try StartRequest(kind: kind, attributes: attributes, state: state, options: options, method: "Start")
        reloadKindsIfUnknown(request.kind)
        try checkPushOptions(request)
        let now = clock()
        let before = registry
        let (id, events) = try mapped { () throws(ActivityError) in
            try registry.start(kind: request.kind, attributes: request.attributes, state: request.state,
                               options: request.options, now: now)
        }
        try commit(events, before: before, now: now)
        registerPush(id.rawValue, request)
        return id.rawValue
    }

    func update(id: String, state: [String: DBusValue], options: [String: DBusValue]) throws(DBusError) {
        let values = try ValueConversion.modelValues(state, what: "state")
        let reader = try OptionReader(method: "Update", options: options,
                                      known: ["stale-at", "relevance", "alert-title", "alert-body", "alert-sound"])
        let updateOptions = UpdateOptions(staleAt: try reader.unixTime("stale-at"), relevance: try reader.number("relevance"),
                                          alertTitle: try reader.string("alert-title"), alertBody: try reader.string("alert-body"),
                                          alertSound: try reader.string("alert-sound"))
        let now = clock()
        let before = registry
        let events = try mapped { () throws(ActivityError) in
            try registry.update(id: id, state: values, options: updateOptions, now: now)
        }
        try commit(events, before: before, durable: false, now: now)
    }

    func end(id: String, state: [String: DBusValue], options: [String: DBusValue]) throws(DBusError) {
        let values = try ValueConversion.modelValues(state, what: "state")
        let reader = try OptionReader(method: "End", options: options, known: ["reason", "dismissal", "dismiss-at"])
        let endOptions = EndOptions(reason: try reader.endReason("reason"), dismissal: try reader.string("dismissal"),
                                    dismissAt: try reader.unixTime("dismiss-at"))
        let now = clock()
        let before = registry
        let events = try mapped { () throws(ActivityError) in
            try registry.end(id: id, state: values, options: endOptions, now: now)
        }
        try commit(events, before: before, now: now)
    }

    func toggle(kind: String, attributes: [String: DBusValue], state: [String: DBusValue],
                options: [String: DBusValue]) throws(DBusError) -> (String, Bool) {
        let request = try StartRequest(kind: kind, attributes: attributes, state: state, options: options, method: "Toggle")
        reloadKindsIfUnknown(request.kind)
        let now = clock()
        let before = registry
        let (id, started, events) = try mapped { () throws(ActivityError) in
            try registry.toggle(kind: request.kind, attributes: request.attributes, state: request.state,
                                options: request.options, endOptions: EndOptions(reason: request.reason), now: now)
        }
        try commit(events, before: before, now: now)
        return (id.rawValue, started)
    }

    func pause(id: String) throws(DBusError) {
        let now = clock()
        let before = registry
        let events = try mapped { () throws(ActivityError) in try registry.pause(id: id, now: now) }
        try commit(events, before: before, now: now)
    }

    func resume(id: String) throws(DBusError) {
        let now = clock()
        let before = registry
        let events = try mapped { () throws(ActivityError) in try registry.resume(id: id, now: now) }
        try commit(events, before: before, now: now)
    }

    func extend(id: String, seconds: Int64) throws(DBusError) {
        let now = clock()
        let before = registry
        let events = try mapped { () throws(ActivityError) in
            try registry.extend(id: id, seconds: seconds, now: now)
        }
        try commit(events, before: before, now: now)
    }

    func properties(id: String) throws(DBusError) -> DBusValue {
        _ = try mapped { () throws(ActivityError) in try ActivityID(id) }
        guard let current = snapshot(id, now: clock()) else {
            throw DBusError(name: BusNames.errorPrefix + "NotFound", message: "no activity with id \"\(id)\"")
        }
        return ActivityProperty.getReply(of: current)
    }

    func list() -> [(id: String, kind: String, status: String)] {
        registry.activities.map { ($0.id.rawValue, $0.kind, $0.status.rawValue) }
    }

    var enabled: Bool { registry.enabled }

    func setEnabled(_ on: Bool) throws(DBusError) {
        guard on != registry.enabled else { return }
        let before = registry
        registry.enabled = on
        do {
            try store.record(changes([], since: before), durable: true) { fullState }
        } catch {
            registry = before
            publishStorageStatus()
            throw Self.storageFailed(error)
        }
        guard on else { presenter?.hideAll(); return }
        // Cards were not sent while disabled: hand the presenter each one as it is now (it
        // keeps them while hidden), then show them all.
        lastCards = [:]
        let now = clock()
        for activity in registry.activities { refresh(activity.id.rawValue, alert: nil, now: now) }
        presenter?.showAll()
    }

    var compactText: String { compactText(at: clock()) }

    func compactText(at now: Double) -> String {
        registry.compactText(now: now, timeZoneOffset: Self.timeZoneOffset(at: now), style: renderStyle)
    }
    var activeCount: Int { registry.liveCount }
    var kindNames: [String] { catalog.names }
    /// `StorageStatus`: `ok`, or the last write error and what was set aside at start.
    var storageStatus: String { store.status }
    var notificationServer: String { presenter?.serverInfo?.displayName ?? "" }

    // MARK: Helpers

    /// Runs a model call, turning its typed error into the D-Bus error of the contract.
    func mapped<T>(_ body: () throws(ActivityError) -> T) throws(DBusError) -> T {
        do {
            return try body()
        } catch {
            throw DBusError(name: error.name == "InvalidArgs" ? "org.freedesktop.DBus.Error.InvalidArgs"
                                                             : BusNames.errorPrefix + error.name,
                            message: error.message)
        }
    }

    static func timeZoneOffset(at time: Double) -> Double {
        LocalTime.utcOffset(at: time)
    }
}

/// Start's and Toggle's arguments, converted and checked before the model sees them.
struct StartRequest {
    let kind: String
    let attributes: [String: Value]
    let state: [String: Value]
    let options: StartOptions
    let reason: EndReason?
    /// Start options `push-type` (`token`) and `push-channel` (ActivityService+Push).
    let pushType: String?
    let pushChannel: String?

    init(kind: String, attributes: [String: DBusValue], state: [String: DBusValue], options: [String: DBusValue],
         method: String) throws(DBusError) {
        self.kind = kind
        self.attributes = try ValueConversion.modelValues(attributes, what: "attributes")
        self.state = try ValueConversion.modelValues(state, what: "state")
        var known = ["id", "stale-at", "relevance", "app-name"]
        if method == "Toggle" { known.append("reason") } else { known += ["push-type", "push-channel"] }
        let reader = try OptionReader(method: method, options: options, known: known)
        self.options = StartOptions(id: try reader.string("id"), staleAt: try reader.unixTime("stale-at"),
                                    relevance: try reader.number("relevance"), appName: try reader.string("app-name"))
        reason = try reader.endReason("reason")
        (pushType, pushChannel) = try reader.pushOptions()
    }
}
