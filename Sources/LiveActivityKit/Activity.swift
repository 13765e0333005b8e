import DBus
import Foundation

/// A Live Activity of one attributes type: start it, update it, end it, observe it, as with
/// ActivityKit's `Activity`. Here the daemon `liveactivityd` owns the activity (its card,
/// its timer, its persistence), so it outlives this process and is found again through
/// `activities` after a restart.
///
/// Differs from ActivityKit:
/// - `request` and `activities` are synchronous calls over D-Bus (ActivityKit's are
///   synchronous too, but local): they block the calling thread for one round trip.
/// - `update` and `end` are `async` as in ActivityKit and never throw; a refusal (a key the
///   kind does not declare, the 4 KB cap, an ended activity) is printed to stderr. Use
///   `throwingUpdate` / `throwingEnd` to get it as an error.
/// - The daemon merges the keys an update carries: a field that becomes `nil` keeps its last
///   value in the daemon (this process's `content` is exact; a restarted app reads the old value).
public final class Activity<Attributes: ActivityAttributes>: Identifiable, SignalObserver, @unchecked Sendable {
    public typealias ContentState = Attributes.ContentState

    /// The daemon's id of the activity (ActivityKit: a UUID string; here 1–64 of `[A-Za-z0-9_]`).
    public let id: String
    public let attributes: Attributes
    /// The kind the daemon draws it with: `Attributes.activityKind`, or `generic` when that had no kind file.
    public let kind: String
    let link: DaemonLink
    private let lock = NSLock()
    private var latestContent: ActivityContent<ContentState>
    private var latestState: ActivityState
    private var latestPushToken: Data?
    private var latestTimestamp: Date?
    private var subscription: Int?

    init(id: String, attributes: Attributes, kind: String, content: ActivityContent<ContentState>,
         state: ActivityState, link: DaemonLink) {
        self.id = id
        self.attributes = attributes
        self.kind = kind
        self.link = link
        latestContent = content
        latestState = state
        subscription = link.hub.subscribe(WeakObserver(self).handler)
    }

    deinit {
        if let subscription { link.hub.unsubscribe(subscription) }
    }

    /// The latest content: what this process last sent, or what the daemon last announced.
    public var content: ActivityContent<ContentState> {
        lock.lock()
        defer { lock.unlock() }
        return latestContent
    }

    /// The content's state (ActivityKit's older `contentState`).
    public var contentState: ContentState { content.state }

    /// Where the activity is in its life cycle, kept current from the daemon's signals.
    public var activityState: ActivityState {
        lock.lock()
        defer { lock.unlock() }
        return latestState
    }

    /// The daemon's push token (`PushToken`) of an activity requested with `.token`; nil otherwise
    /// or when the daemon has no push.
    public var pushToken: Data? {
        lock.lock()
        defer { lock.unlock() }
        return latestPushToken
    }

    /// Whether an update stamped `timestamp` is newer than every one applied so far (and records it).
    func accepts(timestamp: Date) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let latestTimestamp, timestamp <= latestTimestamp { return false }
        latestTimestamp = timestamp
        return true
    }

    func setPushToken(_ token: Data?) {
        lock.lock()
        latestPushToken = token
        lock.unlock()
    }

    func setContent(_ content: ActivityContent<ContentState>) {
        lock.lock()
        latestContent = content
        lock.unlock()
    }

    func setState(_ state: ActivityState) {
        lock.lock()
        latestState = state
        lock.unlock()
    }

    /// Keeps `content` and `activityState` current (on the loop thread).
    func observe(_ signal: DaemonSignal) {
        guard signal.activityID == id else { return }
        switch signal {
        case .status(_, let status):
            setState(ActivityState(status: status))
            if status == "ended" { refreshContent() }
        case .updated:
            refreshContent()
        default:
            break
        }
    }

    private func refreshContent() {
        link.callAsync("Get", [.string(id)], completion: WeakObserver(self).snapshotHandler)
    }

    func received(_ snapshot: DaemonSnapshot) {
        guard let content = snapshot.content(ContentState.self) else { return }
        setContent(content)
        // A Get's reply can be older than a status signal that came before it: it never moves
        // the state back (pending → active → ended → dismissed; active and stale alternate).
        lock.lock()
        let snapshotState = ActivityState(status: snapshot.status)
        if snapshotState.lifecycleRank >= latestState.lifecycleRank { latestState = snapshotState }
        lock.unlock()
    }
}

// MARK: Starting and finding activities

extension Activity {
    /// Starts a Live Activity: the daemon shows its card at once.
    ///
    /// The kind is `Attributes.activityKind`. If the daemon knows no such kind (no kind file;
    /// it re-reads its kind directories first), the activity starts as the `generic` kind with
    /// a title from the type's name and a body listing the state's fields.
    /// With a `pushType` the daemon is asked for a push token or channel (DESIGN.md's push over
    /// MQTT); a daemon without push starts the activity without one (`pushToken` stays nil).
    ///
    /// - Throws: `ActivityAuthorizationError`: `.attributesTooLarge` over 4 KB, `.denied` when
    ///   Live Activities are switched off, `.globalMaximumExceeded`, `.invalidContent` for a key
    ///   or value the kind refuses, `.daemonUnavailable` when no daemon answers.
    public static func request(attributes: Attributes, content: ActivityContent<ContentState>,
                               pushType: PushType? = nil) throws -> Activity<Attributes> {
        try request(attributes: attributes, content: content, pushType: pushType, link: DaemonLink.current())
    }

    static func request(attributes: Attributes, content: ActivityContent<ContentState>, pushType: PushType? = nil,
                        start: Date? = nil, link: DaemonLink) throws(ActivityAuthorizationError) -> Activity<Attributes> {
        let flatAttributes = try FlatPayload(encoding: attributes, what: "attributes")
        let flatState = try FlatPayload(encoding: content.state, what: "state")
        let kindName = Attributes.activityKind
        let options = ContentOptions.start(content).merging(PushOptions.start(pushType)) { first, _ in first }
            .merging(ScheduledStart.options(start)) { first, _ in first }
            .merging(LiveActivityApp.startOptions) { first, _ in first }
        var kind = kindName
        var reply: [DBusValue]
        do {
            reply = try PushOptions.start(link, [.string(kindName), .vardict(flatAttributes.values),
                                                 .vardict(content.withSegments(flatState.values))], options: options)
        } catch where error.code == .unsupported {
            kind = FallbackCard.kind
            reply = try PushOptions.start(link, [
                .string(kind), .vardict(FallbackCard.attributes(flatAttributes, kindName: kindName)),
                .vardict(content.withSegments(FallbackCard.state(flatState, title: ActivityKindName.title(of: Attributes.self)))),
            ], options: options)
        }
        guard let id = reply.first?.string else {
            throw ActivityAuthorizationError(.persistenceFailure, "Start replied without an id")
        }
        let activity = Activity(id: id, attributes: attributes, kind: kind, content: content,
                                state: ScheduledStart.isPending(start) ? .pending : .active, link: link)
        if pushType == .token, let reply = try? link.call("Get", [.string(id)]) {
            activity.setPushToken(DaemonSnapshot(getReply: reply)?.pushToken)
        }
        return activity
    }

    /// Every activity of this attributes type the daemon holds (live, or ended and still on
    /// screen), most relevant first, with typed attributes and `content.state` decoded from
    /// the daemon: a restarted app finds its running activities here. Activities that do not
    /// decode as `Attributes` are left out; with no daemon the list is empty.
    public static var activities: [Activity<Attributes>] {
        guard let link = try? DaemonLink.current() else { return [] }
        return activities(link: link)
    }

    static func activities(link: DaemonLink) -> [Activity<Attributes>] {
        guard let rows = try? link.call("List", []).first, case .array(_, let items) = rows else { return [] }
        let kindName = Attributes.activityKind
        return items.compactMap { row -> Activity<Attributes>? in
            guard case .structure(let fields) = row, fields.count == 4, let id = fields[0].string,
                  let kind = fields[1].string, kind == kindName || kind == FallbackCard.kind else { return nil }
            return restore(id: id, link: link)
        }
    }

    /// The activity with this id, decoded from the daemon; nil when it is not of this type.
    static func restore(id: String, link: DaemonLink) -> Activity<Attributes>? {
        guard let reply = try? link.call("Get", [.string(id)]), let snapshot = DaemonSnapshot(getReply: reply) else { return nil }
        let kindName = Attributes.activityKind
        var attributeValues = snapshot.attributes
        if snapshot.kind == FallbackCard.kind {
            guard attributeValues.removeValue(forKey: FallbackCard.typeKey)?.string == kindName else { return nil }
        } else if snapshot.kind != kindName {
            return nil
        }
        guard let attributes = try? FlatPayload.decode(Attributes.self, from: attributeValues, what: "attributes"),
              let content = snapshot.content(ContentState.self) else { return nil }
        let activity = Activity(id: snapshot.id, attributes: attributes, kind: snapshot.kind, content: content,
                                state: ActivityState(status: snapshot.status), link: link)
        activity.setPushToken(snapshot.pushToken)
        return activity
    }
}
