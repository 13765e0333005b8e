import DBus
import TestSupport

/// Generates method calls to every method and property of both interfaces of the daemon,
/// the standard interfaces, and members, interfaces and paths that do not exist: right and
/// wrong signatures, hostile contents, ids of every shape, live and ended activities.
struct HostileMessages {
    static let busName = BusNames.busName
    static let managerPath = BusNames.managerPath
    static let managerInterface = BusNames.managerInterface
    static let activityInterface = BusNames.activityInterface
    static let managerMethods = ["Start", "Update", "End", "Get", "List", "Toggle", "Pause", "Resume", "Extend"]
    static let managerProperties = ["Enabled", "CompactText", "ActiveCount", "Kinds", "NotificationServer", "Version"]
    static let activityProperties = ["Id", "Kind", "Status", "Attributes", "State", "StartedAt", "UpdatedAt", "StaleAt",
                                     "EndedAt", "Reason", "Relevance", "Title", "Body", "Progress", "CompactLeading",
                                     "CompactTrailing", "Minimal"]

    var values: HostileValues
    /// Ids of activities this run started (live or ended); Start replies add to it.
    var knownIDs: [String] = []

    init(seed: UInt64) { values = HostileValues(random: SeededRandom(seed: seed)) }

    private var random: SeededRandom {
        get { values.random }
        set { values.random = newValue }
    }

    /// The next message; never one that libdbus or the bus would refuse to carry.
    mutating func next() -> DBusMessage {
        while true {
            let (path, interface, member, arguments) = nextCall()
            if let message = try? DBusMessage.methodCall(destination: Self.busName, path: path, interface: interface,
                                                         member: member),
               (try? message.append(arguments)) != nil {
                return message
            }
        }
    }

    /// Remembers the id a Start or Toggle reply carried.
    mutating func noteReply(_ outputs: [DBusValue]) {
        guard outputs.count == 2, case .string(let id) = outputs[0] else { return }
        switch outputs[1] {
        case .objectPath, .boolean: if !knownIDs.contains(id) { knownIDs.append(id) }
        default: break
        }
    }

    private mutating func nextCall() -> (String, String?, String, [DBusValue]) {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<12: return (Self.managerPath, Self.managerInterface, "Start", plausibleStart())
        case 12..<42:
            let member = random.pick(Self.managerMethods)
            return (Self.managerPath, random.chance(0.9) ? Self.managerInterface : nil, member, wellTyped(member))
        case 42..<55: return (Self.managerPath, Self.managerInterface, random.pick(Self.managerMethods), randomArguments())
        case 55..<70: return propertiesCall()
        case 70..<78: return standardCall()
        case 78..<88: return unknownCall()
        default: return lifecycleCall()
        }
    }

    /// Arguments of the right signature for a manager method, with hostile contents.
    private mutating func wellTyped(_ member: String) -> [DBusValue] {
        let id = DBusValue.string(values.id(known: knownIDs))
        switch member {
        case "Start", "Toggle":
            let kind = random.chance(0.6) ? random.pick(["generic", "fasting", "focus"]) : values.string()
            return [.string(kind), values.vardict(), values.vardict(), values.vardict()]
        case "Update", "End": return [id, values.vardict(), values.vardict()]
        case "Extend": return [id, .int64(random.pick([Int64.min, -1, 0, 60, Int64.max]))]
        case "List": return []
        default: return [id]
        }
    }

    /// Start with contents a real client would send, so the run has live activities to abuse.
    private mutating func plausibleStart() -> [DBusValue] {
        let kind = random.pick(["generic", "generic", "fasting", "focus"])
        let (attributes, state) = values.plausibleState(kind: kind)
        var options: [String: DBusValue] = [:]
        if random.chance(0.3) { options["id"] = .string(values.id(known: [])) }
        return [.string(kind), attributes, state, .vardict(options)]
    }

    /// Arguments of a random count and types (mostly a wrong signature).
    private mutating func randomArguments() -> [DBusValue] {
        (0..<Int.random(in: 0...5, using: &random)).map { _ in values.value() }
    }

    /// Properties.Get, GetAll and Set on the manager or an activity, with real and bogus names.
    private mutating func propertiesCall() -> (String, String?, String, [DBusValue]) {
        let onActivity = random.chance(0.5)
        let path = onActivity ? activityPath(values.id(known: knownIDs)) : Self.managerPath
        let interface = random.pick([Self.managerInterface, Self.activityInterface, "org.freedesktop.DBus.Properties",
                                     "org.example.Nope", "", values.string()])
        let names = onActivity ? Self.activityProperties : Self.managerProperties
        let name = random.chance(0.8) ? random.pick(names) : values.string()
        let properties = "org.freedesktop.DBus.Properties"
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return (path, properties, "Get", [.string(interface), .string(name)])
        case 1: return (path, properties, "GetAll", [.string(interface)])
        case 2: return (path, properties, "Set", [.string(interface), .string(name), .variant(values.value())])
        default: return (path, properties, random.pick(["Get", "GetAll", "Set"]), randomArguments())
        }
    }

    /// Introspectable, Peer and ObjectManager, on real and unknown paths.
    private mutating func standardCall() -> (String, String?, String, [DBusValue]) {
        let path = random.pick([Self.managerPath, "/", "/io", activityPath(values.id(known: knownIDs))])
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return (path, "org.freedesktop.DBus.Introspectable", "Introspect", [])
        case 1: return (path, "org.freedesktop.DBus.Peer", "Ping", [])
        case 2: return (path, "org.freedesktop.DBus.Peer", "GetMachineId", [])
        case 3: return (path, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", [])
        default: return (path, random.pick(["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer",
                                            "org.freedesktop.DBus.ObjectManager"]),
                         random.pick(["Introspect", "Ping", "GetManagedObjects"]), [values.value()])
        }
    }

    /// Members, interfaces and paths that do not exist.
    private mutating func unknownCall() -> (String, String?, String, [DBusValue]) {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return (Self.managerPath, Self.managerInterface, random.pick(["Stop", "start", "Delete", "X"]), randomArguments())
        case 1: return (Self.managerPath, random.pick(["org.example.Unknown", "io.github.liveactivities.LiveActivities2"]),
                        "Start", randomArguments())
        case 2: return (random.pick(["/nowhere", "/io/github/liveactivities/LiveActivities1/activity",
                                     "/io/github/liveactivities/LiveActivities1/other/x"]),
                        Self.managerInterface, random.pick(Self.managerMethods), randomArguments())
        default: return (activityPath(values.id(known: knownIDs)), Self.activityInterface,
                         random.pick(["Update", "End", "Get", "Nope"]), randomArguments())
        }
    }

    /// Lifecycle calls on known (often ended) activities with well-formed arguments.
    private mutating func lifecycleCall() -> (String, String?, String, [DBusValue]) {
        let id = DBusValue.string(values.id(known: knownIDs))
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return (Self.managerPath, Self.managerInterface, "End",
                        [id, .vardict([:]), .vardict(["dismissal": .string(random.pick(["default", "immediate"]))])])
        case 1: return (Self.managerPath, Self.managerInterface, "Update", [id, .vardict(["body": .string("u")]), .vardict([:])])
        case 2: return (Self.managerPath, Self.managerInterface, "Pause", [id])
        case 3: return (Self.managerPath, Self.managerInterface, "Resume", [id])
        case 4: return (Self.managerPath, Self.managerInterface, "Extend", [id, .int64(random.pick([-600, 0, 300, Int64.max]))])
        default: return (Self.managerPath, Self.managerInterface, "Get", [id])
        }
    }

    /// The activity object path for `id`, or a valid stand-in when `id` cannot be a path element.
    private func activityPath(_ id: String) -> String {
        let valid = !id.isEmpty && id.utf8.count <= 255 && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
        return Self.managerPath + "/activity/" + (valid ? id : "not_there")
    }
}
