import DBus

/// The options of Start and Update for a content's stale date and relevance.
enum ContentOptions {
    static func start(_ content: ActivityContent<some Hashable & Codable>) -> [String: DBusValue] {
        var options: [String: DBusValue] = ["relevance": .double(content.relevanceScore.isFinite ? content.relevanceScore : 0)]
        if let stale = content.staleDate {
            options["stale-at"] = .int64(Int64(min(max(1, stale.timeIntervalSince1970.rounded(.up)), 9e18)))
        }
        return options
    }
}

/// What the daemon's signals and replies are handed to, without the closures that carry them
/// capturing an activity's generic types (whose metatypes need not be Sendable).
protocol SignalObserver: AnyObject, Sendable {
    func observe(_ signal: DaemonSignal)
    func received(_ snapshot: DaemonSnapshot)
}

/// Holds an observer weakly, so a subscription does not keep its activity alive.
struct WeakObserver: Sendable {
    private weak var observer: (any SignalObserver)?

    init(_ observer: any SignalObserver) { self.observer = observer }

    var handler: @Sendable (DaemonSignal) -> Void {
        { [self] signal in observer?.observe(signal) }
    }

    var snapshotHandler: @Sendable (Result<[DBusValue], ActivityAuthorizationError>) -> Void {
        { [self] result in
            guard case .success(let reply) = result, let snapshot = DaemonSnapshot(getReply: reply) else { return }
            observer?.received(snapshot)
        }
    }
}
