/// The set of activities and every rule of their lifecycle, as a pure value.
///
/// Every mutating call takes the time, validates fully before changing anything (a refused
/// call throws `ActivityError` and changes nothing) and returns the events for the daemon to
/// fan out. Persist `snapshot` after calls that return events; restore with
/// `init(catalog:limits:snapshot:)` and then call `tick` so ends that passed while the daemon
/// was down take effect.
public struct ActivityRegistry: Sendable {
    /// Replacing the catalog can change how every activity renders, so the renders kept from
    /// the last tick go, and renders kept elsewhere can tell by `catalogGeneration`.
    public var catalog: KindCatalog {
        didSet {
            renderCache = [:]
            catalogGeneration &+= 1
        }
    }
    /// Counts the catalog's replacements: a render made under another generation may differ.
    public private(set) var catalogGeneration = 0
    public var limits: Limits
    /// `Enabled`: when false, Start and Toggle-to-start are refused with `Disabled`.
    public var enabled: Bool
    public internal(set) var idGenerator: ActivityIDGenerator
    var storage = UndoableStorage()
    /// `enabled` and the id generator when the open change began (`beginChange`).
    private var settingsBeforeChange: RegistryMark?
    /// What each activity looked like at the last tick, to report `rendered` only on change;
    /// an activity's entry goes when it changes. Also reused by the reads of that same moment
    /// (`render(id:)`, `compactText`, `nextDeadline`), so a tick renders each activity once.
    var renderCache: [ActivityID: CachedRender] = [:]
    var renderCacheStyle: RenderStyle?
    /// The moment of the last tick (time and zone offset), which every entry of `renderCache` shows.
    var renderCacheMoment: RenderMoment?
    /// Scheduled updates a tick dropped since the daemon last took them (`takeDroppedScheduledUpdates`).
    var droppedScheduledUpdates: [DroppedScheduledUpdate] = []

    /// An empty registry; `idSeed` makes generated ids (pass a random number in the daemon).
    public init(catalog: KindCatalog, limits: Limits = Limits(), enabled: Bool = true, idSeed: UInt64) {
        self.catalog = catalog
        self.limits = limits
        self.enabled = enabled
        self.idGenerator = ActivityIDGenerator(seed: idSeed)
    }

    /// A registry restored from a snapshot.
    public init(catalog: KindCatalog, limits: Limits = Limits(), snapshot: RegistrySnapshot) {
        self.catalog = catalog
        self.limits = limits
        self.enabled = snapshot.enabled
        self.idGenerator = snapshot.idGenerator
        for activity in snapshot.activities { storage[activity.id] = activity }
    }

    /// Opens a change: until `endChange` or `rollBack`, what the registry's calls replace is
    /// kept so it can be put back. Returns the settings as they are, for the journal.
    public mutating func beginChange() -> RegistryMark {
        let mark = RegistryMark(enabled: enabled, idGenerator: idGenerator)
        storage.beginChange()
        settingsBeforeChange = mark
        return mark
    }

    /// Keeps the open change.
    public mutating func endChange() {
        storage.endChange()
        settingsBeforeChange = nil
    }

    /// Takes the open change back, as if its calls had not been made.
    public mutating func rollBack() {
        for id in storage.rollBack() { renderCache[id] = nil }
        if let settings = settingsBeforeChange {
            enabled = settings.enabled
            idGenerator = settings.idGenerator
        }
        settingsBeforeChange = nil
    }

    /// Everything to persist: activities, `Enabled` and the id generator.
    public var snapshot: RegistrySnapshot {
        RegistrySnapshot(enabled: enabled, idGenerator: idGenerator, activities: activities)
    }

    /// All activities not yet dismissed, most relevant first: highest relevance, then most
    /// recently started (then id, so the order is stable).
    public var activities: [Activity] {
        storage.values.sorted { lhs, rhs in
            if lhs.relevance != rhs.relevance { return lhs.relevance > rhs.relevance }
            if lhs.startedAt != rhs.startedAt { return lhs.startedAt > rhs.startedAt }
            return lhs.id < rhs.id
        }
    }

    /// The live (active, paused, stale) activities, most relevant first.
    public var live: [Activity] { activities.filter(\.isLive) }

    /// `ActiveCount`: how many activities are live.
    public var liveCount: Int { storage.values.filter(\.isLive).count }

    /// The activity with this id, if there is one (invalid shapes simply have none).
    public func activity(_ id: String) -> Activity? {
        guard let id = try? ActivityID(id) else { return nil }
        return storage[id]
    }

    /// The kind of an activity; a stand-in when its kind file disappeared since Start.
    func kind(of activity: Activity) -> Kind {
        catalog.kind(named: activity.kind) ?? Kind.missing(named: activity.kind)
    }

    /// The activity for a client-given id, or `invalidArgument` / `notFound`.
    func existing(_ id: String) throws(ActivityError) -> Activity {
        let checked = try ActivityID(id)
        guard let activity = storage[checked] else { throw .notFound("no activity with id \(Quoted.text(id))") }
        return activity
    }

    /// The activity if it is live, else `notActive` saying what the caller tried to do.
    func existingLive(_ id: String, toBe verb: String) throws(ActivityError) -> Activity {
        let activity = try existing(id)
        guard activity.isLive else {
            throw .notActive("activity \(Quoted.text(id)) is \(activity.status.rawValue); only live activities can be \(verb)")
        }
        return activity
    }

    /// Refuses attributes and state larger than the limit.
    func checkPayload(attributes: [String: Value], state: [String: Value]) throws(ActivityError) {
        let size = PayloadSize.of(attributes: attributes, state: state)
        guard size <= limits.maxPayloadBytes else {
            throw .payloadTooLarge("attributes and state are \(size) bytes; the limit is \(limits.maxPayloadBytes)")
        }
    }

    /// Refuses a non-finite time or relevance option.
    static func checkFinite(_ value: Double?, option: String) throws(ActivityError) {
        if let value, !value.isFinite {
            throw .invalidArgument("option \"\(option)\": expected a finite number, got number \(value)")
        }
    }

    /// Refuses a time option outside `InputLimits` (1970 to 9999).
    static func checkTime(_ value: Double?, option: String) throws(ActivityError) {
        if let value, !InputLimits.isTime(value) {
            throw .invalidArgument("option \"\(option)\": expected \(InputLimits.timeRangeText), got number \(value)")
        }
    }

    /// The status a live activity has at `now`: paused while its timer is, else stale once
    /// `staleAt` has passed, else active.
    static func liveStatus(of activity: Activity, at now: UnixTime) -> ActivityStatus {
        if let timer = activity.timer, !timer.isRunning { return .paused }
        if let staleAt = activity.staleAt, staleAt <= now { return .stale }
        return .active
    }
}

/// A registry's settings at the start of a change: what the journal compares with after it.
public struct RegistryMark: Sendable, Equatable {
    public let enabled: Bool
    public let idGenerator: ActivityIDGenerator
}

/// The persisted form of a registry.
public struct RegistrySnapshot: Codable, Equatable, Sendable {
    public var version: Int
    public var enabled: Bool
    public var idGenerator: ActivityIDGenerator
    public var activities: [Activity]

    public init(version: Int = 1, enabled: Bool, idGenerator: ActivityIDGenerator, activities: [Activity]) {
        self.version = version
        self.enabled = enabled
        self.idGenerator = idGenerator
        self.activities = activities
    }
}
