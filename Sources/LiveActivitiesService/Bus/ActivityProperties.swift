import ActivityFiles
import ActivityModel
import DBus

/// One property of the Activity interface: its D-Bus name, its kebab-case key in `Get`, its
/// type, and how to read it from a snapshot.
struct ActivityProperty: Sendable {
    let name: String
    let key: String
    let signature: String
    let read: @Sendable (ActivitySnapshot) -> DBusValue

    /// The table of DESIGN.md's Activity interface, in its order.
    static let all: [ActivityProperty] = [
        ActivityProperty(name: "Id", key: "id", signature: "s") { .string($0.activity.id.rawValue) },
        ActivityProperty(name: "Kind", key: "kind", signature: "s") { .string($0.activity.kind) },
        ActivityProperty(name: "Status", key: "status", signature: "s") { .string($0.activity.status.rawValue) },
        ActivityProperty(name: "Attributes", key: "attributes", signature: "a{sv}") { ValueConversion.vardict($0.activity.attributes) },
        ActivityProperty(name: "State", key: "state", signature: "a{sv}") { ValueConversion.vardict($0.activity.state) },
        ActivityProperty(name: "StartedAt", key: "started-at", signature: "x") { unixSeconds($0.activity.startedAt) },
        ActivityProperty(name: "UpdatedAt", key: "updated-at", signature: "x") { unixSeconds($0.activity.updatedAt) },
        ActivityProperty(name: "StaleAt", key: "stale-at", signature: "x") { unixSeconds($0.activity.staleAt) },
        ActivityProperty(name: "EndedAt", key: "ended-at", signature: "x") { unixSeconds($0.activity.endedAt) },
        ActivityProperty(name: "Reason", key: "reason", signature: "s") { .string($0.activity.reason?.rawValue ?? "") },
        ActivityProperty(name: "Relevance", key: "relevance", signature: "d") { .double($0.activity.relevance) },
        ActivityProperty(name: "Title", key: "title", signature: "s") { .string($0.rendered.title) },
        ActivityProperty(name: "Body", key: "body", signature: "s") { .string($0.rendered.body) },
        ActivityProperty(name: "Progress", key: "progress", signature: "d") { .double($0.rendered.progress ?? -1) },
        ActivityProperty(name: "CompactLeading", key: "compact-leading", signature: "s") { .string($0.rendered.compactLeading) },
        ActivityProperty(name: "CompactTrailing", key: "compact-trailing", signature: "s") { .string($0.rendered.compactTrailing) },
        ActivityProperty(name: "Minimal", key: "minimal", signature: "s") { .string($0.rendered.minimal) },
        ActivityProperty(name: "Actions", key: "actions", signature: "a(ss)") { ActivityActions.value(of: $0) },
        ActivityProperty(name: "PushToken", key: "push-token", signature: "s") { .string($0.pushToken) },
        ActivityProperty(name: "ScheduledUpdates", key: "scheduled-updates", signature: ScheduledUpdatesProperty.signature) {
            ScheduledUpdatesProperty.value(of: $0.activity)
        },
        ActivityProperty(name: "Segments", key: "segments", signature: SegmentsProperty.segmentsSignature) { SegmentsProperty.segments(of: $0) },
        ActivityProperty(name: "Points", key: "points", signature: SegmentsProperty.pointsSignature) { SegmentsProperty.points(of: $0) },
        ActivityProperty(name: "SegmentText", key: "segment-text", signature: "s") { SegmentsProperty.text(of: $0) },
        ActivityProperty(name: "LockScreen", key: "lock-screen", signature: "s") { .string($0.lockScreen.rawValue) },
        ActivityProperty(name: "KindName", key: "kind-name", signature: "s") { .string($0.kindName) },
        ActivityProperty(name: "AppId", key: "app-id", signature: "s") { .string($0.activity.appID ?? "") },
    ]

    /// Unix seconds as `x`, 0 for none.
    private static func unixSeconds(_ time: Double?) -> DBusValue {
        guard let time, time.isFinite else { return .int64(0) }
        return .int64(Int64(saturating: time.rounded(.down)))
    }

    /// Every property's value, in `all`'s order.
    static func orderedValues(of snapshot: ActivitySnapshot) -> [DBusValue] {
        all.map { $0.read(snapshot) }
    }

    /// Every property's value, by D-Bus name.
    static func values(of snapshot: ActivitySnapshot) -> [String: DBusValue] {
        Dictionary(uniqueKeysWithValues: zip(all.map(\.name), orderedValues(of: snapshot)))
    }

    /// The reply of `Get`: every property by kebab-case key.
    static func getReply(of snapshot: ActivitySnapshot) -> DBusValue {
        var result: [String: DBusValue] = [:]
        for property in all { result[property.key] = property.read(snapshot) }
        return .vardict(result)
    }
}

/// The Activity interface of one activity object, read-only, from the table above.
enum ActivityInterface {
    /// `snapshot` is taken once per read: once for a `Get` of one property, once for all of
    /// them in a GetAll or an ObjectManager's report (`readAll`).
    static func make(id: String, snapshot: @escaping (String) -> ActivitySnapshot?) -> DBusInterface {
        DBusInterface(
            name: BusNames.activityInterface,
            properties: ActivityProperty.all.map { property in
                DBusProperty(property.name, property.signature, get: {
                    guard let current = snapshot(id) else { return emptyValue(property.signature) }
                    return property.read(current)
                })
            },
            readAll: {
                guard let current = snapshot(id) else {
                    var empty: [String: DBusValue] = [:]
                    for property in ActivityProperty.all { empty[property.name] = emptyValue(property.signature) }
                    return empty
                }
                return ActivityProperty.values(of: current)
            })
    }

    /// A value of the right type for an object that is being removed.
    private static func emptyValue(_ signature: String) -> DBusValue {
        switch signature {
        case "s": return .string("")
        case "x": return .int64(0)
        case "d": return .double(-1)
        case "a(ss)": return .array(elementSignature: "(ss)", [])
        case ScheduledUpdatesProperty.signature: return .array(elementSignature: "(xa{sv}a{sv})", [])
        case SegmentsProperty.segmentsSignature: return .array(elementSignature: "(sdsd)", [])
        case SegmentsProperty.pointsSignature: return .array(elementSignature: "(ds)", [])
        default: return .vardict([:])
        }
    }
}
