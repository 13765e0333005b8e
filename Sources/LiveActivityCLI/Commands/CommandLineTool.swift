import ActivityModel
import DBus
import Foundation

/// `liveactivity`: a plain client of the bus API. `run` parses, makes the calls, prints, and
/// returns the exit status; output goes through closures so tests can capture it.
public struct CommandLineTool {
    let environment: [String: String]
    let schema: KeySchema
    let output: (String) -> Void
    /// Writes a line beside the output (stderr), where the output must stay machine-readable.
    let warning: (String) -> Void
    /// Writes one line for `watch`; false when the reader has gone away.
    let writeLine: (String) -> Bool
    /// The descriptor `writeLine` writes to, watched by `watch` so it exits when its reader goes away.
    let outputDescriptor: Int32?
    let now: () -> Double
    /// Seconds east of UTC at an instant: how `HH:MM` and ISO times without offset are read.
    let utcOffset: @Sendable (Int64) -> Int64
    /// What `bind` and friends reach (tools, kglobalaccel); nil for the real ones.
    let hotkeys: HotkeySystem?

    public init(environment: [String: String], schema: KeySchema, output: @escaping (String) -> Void,
                warning: @escaping (String) -> Void = { _ in },
                writeLine: @escaping (String) -> Bool = { _ in true }, outputDescriptor: Int32? = nil,
                now: @escaping () -> Double = { Date().timeIntervalSince1970 },
                utcOffset: @escaping @Sendable (Int64) -> Int64 = SystemTimeZone.utcOffset(at:)) {
        self.init(environment: environment, schema: schema, output: output, warning: warning, writeLine: writeLine,
                  outputDescriptor: outputDescriptor, now: now, utcOffset: utcOffset, hotkeys: nil)
    }

    init(environment: [String: String], schema: KeySchema, output: @escaping (String) -> Void,
         warning: @escaping (String) -> Void = { _ in }, writeLine: @escaping (String) -> Bool = { _ in true },
         outputDescriptor: Int32? = nil, now: @escaping () -> Double = { Date().timeIntervalSince1970 },
         utcOffset: @escaping @Sendable (Int64) -> Int64 = SystemTimeZone.utcOffset(at:), hotkeys: HotkeySystem?) {
        self.hotkeys = hotkeys
        self.utcOffset = utcOffset
        self.environment = environment
        self.schema = schema
        self.output = output
        self.warning = warning
        self.writeLine = writeLine
        self.outputDescriptor = outputDescriptor
        self.now = now
    }

    /// Runs one command line (without the program name). Errors are returned, not printed.
    public func run(_ arguments: [String]) -> Result<Void, CLIError> {
        if let extra = runExtra(arguments) { return extra }
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            output(CommandSpec.overview)
            return .success(())
        }
        if name == "--version" { output("liveactivity \(LiveActivitiesVersion.current)"); return .success(()) }
        guard let spec = CommandSpec.named(name) else {
            return .failure(.usage("unknown command \"\(name)\"; see 'liveactivity --help'"))
        }
        do {
            let command = try ParsedCommand(spec: spec, words: Array(arguments.dropFirst()))
            if command.wantsHelp { output(spec.help); return .success(()) }
            if Self.localCommands.contains(spec.name) { try runLocal(command); return .success(()) }
            if Self.hotkeyCommandNames.contains(spec.name) { try runHotkeys(command); return .success(()) }
            let client = try BusClient(address: environment["DBUS_SESSION_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 })
            try execute(command, client)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    private func execute(_ command: ParsedCommand, _ client: BusClient) throws(CLIError) {
        let p = command.positionals
        switch command.spec.name {
        case "start", "toggle":
            let words = try TimeArguments.resolve(command.keyValues, kind: p[0], schema: schema, clock: clock)
            let values = try KeyValueArguments(words, kind: p[0], schema: schema, allowAttributes: true)
            var options: [String: DBusValue] = [:]
            if let id = command.options["id"] { options["id"] = .string(id) }
            if let stale = try command.time("stale-at", clock: clock) { options["stale-at"] = .int64(stale) }
            if let relevance = try command.number("relevance") { options["relevance"] = .double(relevance) }
            if let app = command.options["app-name"] { options["app-name"] = .string(app) }
            if let app = command.options["app-id"] { options["app-id"] = .string(app) }
            if let reason = command.options["reason"] { options["reason"] = .string(reason) }
            if let startAt = try command.scheduleTime("at", clock: clock) { options["start-at"] = .int64(startAt) }
            options.merge(Self.pushStartOptions(command)) { $1 }
            let method = command.spec.name == "start" ? "Start" : "Toggle"
            let reply = try client.call(method, [.string(p[0]), .vardict(values.attributes), .vardict(values.state), .vardict(options)])
            if method == "Start" {
                output(try startedLine(id: reply.first?.string ?? "", command, client))
            } else {
                let started = reply.count > 1 ? (reply[1].bool ?? false) : false
                output("\(reply.first?.string ?? "") \(started ? "started" : "ended")")
            }
        case "update", "end":
            let kind = try kindOf(p[0], client)
            let words = try TimeArguments.resolve(command.keyValues, kind: kind, schema: schema, clock: clock)
            let values = try KeyValueArguments(words, kind: kind, schema: schema, allowAttributes: false)
            var options: [String: DBusValue] = [:]
            for key in ["alert-title", "alert-body", "alert-sound", "reason", "dismissal"] {
                if let text = command.options[key] { options[key] = .string(text) }
            }
            if let stale = try command.time("stale-at", clock: clock) { options["stale-at"] = .int64(stale) }
            if let dismiss = try command.time("dismiss-at", clock: clock) { options["dismiss-at"] = .int64(dismiss) }
            if let relevance = try command.number("relevance") { options["relevance"] = .double(relevance) }
            options.merge(try Self.scheduleOptions(command, clock: clock)) { $1 }
            let method = command.spec.name == "update" ? "Update" : "End"
            _ = try client.call(method, [.string(p[0]), .vardict(values.state), .vardict(options)])
        case "get":
            let properties = try client.call("Get", [.string(p[0])]).first?.vardict ?? [:]
            output(command.flags.contains("json") ? OutputFormat.json(OutputFormat.jsonObject(.vardict(properties)))
                                                  : OutputFormat.text(properties))
        case "list":
            try list(client, json: command.flags.contains("json"))
        case "scheduled":
            try scheduled(of: p[0], client, json: command.flags.contains("json"))
        case "pause", "resume":
            _ = try client.call(command.spec.name == "pause" ? "Pause" : "Resume", [.string(p[0])])
        case "extend":
            let seconds = try ParsedCommand.duration(p[1], what: "extend")
            _ = try client.call("Extend", [.string(p[0]), .int64(seconds)])
        case "action":
            if p.count > 1 {
                _ = try client.call("InvokeAction", [.string(p[0]), .string(p[1])])
            } else {
                try actions(of: p[0], client)
            }
        case "enabled":
            if p.isEmpty {
                output(try client.property("Enabled").bool == true ? "on" : "off")
            } else {
                guard let on = ["on": true, "off": false, "true": true, "false": false][p[0]] else {
                    throw .usage("enabled: expected on or off, got \"\(p[0])\"")
                }
                try client.setProperty("Enabled", .boolean(on))
            }
        case "status":
            try status(client, json: command.flags.contains("json"))
        case "push-token":
            output(try pushToken(of: p[0], client))
        case "push-to-start-token":
            output(try client.call("PushToStartToken", [.string(p[0])]).first?.string ?? "")
        case "watch":
            let name = command.options["format"] ?? "plain"
            guard let format = WatchFormat(rawValue: name) else {
                throw .usage("watch: unknown format \"\(name)\"; use plain, waybar, i3blocks or polybar")
            }
            try CompactViewWatcher(client: client, format: format, write: writeLine, outputDescriptor: outputDescriptor).run()
        default:
            throw .usage("unknown command \"\(command.spec.name)\"")
        }
    }

    /// The clock human times are read against: now, in the local time zone.
    var clock: HumanTime { HumanTime(now: Int64(saturating: now().rounded(.down)), utcOffset: utcOffset) }

    /// The kind of an activity, to type its state keys as the kind declares them.
    private func kindOf(_ id: String, _ client: BusClient) throws(CLIError) -> String? {
        let properties = try client.call("Get", [.string(id)]).first?.vardict
        return properties?["kind"]?.string
    }

    /// The buttons of an activity, one `KEY<TAB>LABEL` line each, in display order.
    private func actions(of id: String, _ client: BusClient) throws(CLIError) {
        guard case .array(_, let rows)? = try client.call("Get", [.string(id)]).first?.vardict?["actions"] else { return }
        let lines = rows.compactMap { row -> String? in
            guard case .structure(let fields) = row, fields.count == 2, let key = fields[0].string,
                  let label = fields[1].string else { return nil }
            return key + "\t" + label
        }
        if !lines.isEmpty { output(lines.joined(separator: "\n")) }
    }

    /// Every activity, most relevant first: a line each (id, kind, status, title), or with
    /// `--json` each one's every property as `get --json` gives it, from one bus call.
    private func list(_ client: BusClient, json: Bool) throws(CLIError) {
        let activities = try ActivityListing.read(client)
        if json {
            output(OutputFormat.json(activities.map { $0.mapValues(OutputFormat.jsonObject) }))
            return
        }
        let lines = activities.map { properties in
            ["id", "kind", "status", "title"].map { properties[$0]?.string ?? "" }.joined(separator: "\t")
        }
        if !lines.isEmpty { output(lines.joined(separator: "\n")) }
    }

    private func status(_ client: BusClient, json: Bool) throws(CLIError) {
        var properties: [String: DBusValue] = [:]
        for name in ["Version", "Enabled", "NotificationServer", "ActiveCount", "Kinds", "CompactText"] {
            properties[name] = try client.property(name)
        }
        if json {
            output(OutputFormat.json(properties.mapValues(OutputFormat.jsonObject)))
            return
        }
        let kinds: String
        if case .array(_, let names)? = properties["Kinds"] { kinds = names.compactMap(\.string).joined(separator: ", ") } else { kinds = "" }
        output("""
        version:             \(properties["Version"]?.string ?? "")
        enabled:             \(properties["Enabled"]?.bool == true ? "on" : "off")
        notification server: \(properties["NotificationServer"]?.string ?? "")
        live activities:     \(properties["ActiveCount"]?.integer ?? 0)
        kinds:               \(kinds)
        compact text:        \(properties["CompactText"]?.string ?? "")
        """)
    }
}
