/// One subcommand of `liveactivity`: its positional arguments, its options (each a D-Bus
/// option key or a flag), and its help text. The table in `CommandSpec.all` is the single
/// source of parsing and `--help`.
public struct CommandSpec: Sendable {
    /// An option `--name VALUE` (or a flag when `takesValue` is false).
    public struct Option: Sendable {
        let name: String
        let takesValue: Bool
        let help: String
        /// The values the option takes, when it is one of a few (for completions and man pages).
        var values: [String] = []
    }

    public let name: String
    public let positionals: [String]
    public let acceptsKeyValues: Bool
    public let options: [Option]
    public let summary: String
    public let examples: [String]
    /// What follows `--` (`bind KEYS -- COMMAND...`), when the command takes words it passes on.
    var trailing: String? = nil

    /// The usage line, e.g. `liveactivity start KIND [KEY=VALUE...] [options]`.
    public var usage: String {
        var parts = ["liveactivity", name] + positionals
        if acceptsKeyValues { parts.append("[KEY=VALUE...]") }
        if !options.isEmpty { parts.append("[options]") }
        if let trailing { parts += ["--", trailing] }
        return parts.joined(separator: " ")
    }

    /// The `--help` text of this command.
    public var help: String {
        var lines = ["Usage: \(usage)", "", summary]
        if acceptsKeyValues {
            lines += ["", "KEY=VALUE: a kind's attribute or state key. Values are typed as the kind declares them,",
                      "else integers, numbers (with a dot) and true/false are sent as such and the rest as strings.",
                      "Force a type with key:s=, key:i=, key:d=, key:b=; force the place with attr.key= or state.key=."]
        }
        if !options.isEmpty {
            lines += ["", "Options:"]
            for option in options + [Option(name: "help", takesValue: false, help: "show this help")] {
                let left = "  --\(option.name)" + (option.takesValue ? " VALUE" : "")
                lines.append(left.padding(toLength: max(left.count + 2, 26), withPad: " ", startingAt: 0) + option.help)
            }
        }
        if !examples.isEmpty { lines += ["", "Examples:"] + examples.map { "  \($0)" } }
        return lines.joined(separator: "\n")
    }

    func option(named name: String) -> Option? { options.first { $0.name == name } }
}

extension CommandSpec {
    static let timeHelp = "a time: 20:00, +25m, tomorrow 08:00, ISO 8601 or unix seconds"

    /// Every command, in the order `liveactivity --help` lists them.
    public static let all: [CommandSpec] = [
        CommandSpec(name: "start", positionals: ["KIND"], acceptsKeyValues: true, options: [
            Option(name: "id", takesValue: true, help: "choose the activity id (1-64 of A-Z a-z 0-9 _)"),
            Option(name: "stale-at", takesValue: true, help: "when the content goes stale: \(timeHelp)"),
            Option(name: "relevance", takesValue: true, help: "a number; the most relevant shows in the compact view"),
            Option(name: "app-name", takesValue: true, help: "the application name on the card"),
            Option(name: "app-id", takesValue: true, help: "the app's desktop entry id, e.g. org.gnome.Nautilus (its icon and settings)"),
            Option(name: "push", takesValue: false, help: "give it a push token; print \"ID TOKEN\" once the broker has it"),
            Option(name: "push-channel", takesValue: true, help: "follow this push broadcast channel"),
            Option(name: "at", takesValue: true, help: "start then, pending until: \(timeHelp)"),
        ], summary: "Start an activity of KIND and print its id.",
           examples: ["liveactivity start generic title=Build body=\"Compiling…\" progress=0.2",
                      "liveactivity start focus session-type=Pomodoro --at 14:00",
                      "liveactivity start generic title=Delivery --push",
                      "liveactivity start fasting protocol=16:8 start-time=20:00",
                      "liveactivity start focus session-type=Pomodoro --id focus"]),
        CommandSpec(name: "update", positionals: ["ID"], acceptsKeyValues: true, options: [
            Option(name: "stale-at", takesValue: true, help: "when the content goes stale: \(timeHelp)"),
            Option(name: "relevance", takesValue: true, help: "a number; the most relevant shows in the compact view"),
            Option(name: "alert-title", takesValue: true, help: "pop the card up with this title"),
            Option(name: "alert-body", takesValue: true, help: "pop the card up with this text"),
            Option(name: "alert-sound", takesValue: true, help: "a freedesktop sound name, e.g. message-new-instant"),
            Option(name: "at", takesValue: true, help: "apply it then instead of now (at most 16 wait): \(timeHelp)"),
            Option(name: "cancel-at", takesValue: true, help: "cancel the scheduled updates due then (no KEY=VALUE)"),
            Option(name: "cancel-all", takesValue: false, help: "cancel every scheduled update (no KEY=VALUE)"),
        ], summary: "Merge KEY=VALUE into the state of activity ID, now or at a later time.",
           examples: ["liveactivity update build progress=0.8 body=\"Linking\"",
                      "liveactivity update build --alert-title \"Tests failed\"",
                      "liveactivity update build body=Deploying --at +10m",
                      "liveactivity update build --cancel-all"]),
        CommandSpec(name: "end", positionals: ["ID"], acceptsKeyValues: true, options: [
            Option(name: "reason", takesValue: true, help: "completed, cancelled or ended (default)",
                   values: ["completed", "cancelled", "ended"]),
            Option(name: "dismissal", takesValue: true, help: "default (card stays up to 4 h) or immediate",
                   values: ["default", "immediate"]),
            Option(name: "dismiss-at", takesValue: true, help: "close the card then: \(timeHelp)"),
        ], summary: "End activity ID, with an optional final state.",
           examples: ["liveactivity end focus --reason completed", "liveactivity end build --dismissal immediate"]),
        CommandSpec(name: "get", positionals: ["ID"], acceptsKeyValues: false, options: [
            Option(name: "json", takesValue: false, help: "print one JSON object"),
        ], summary: "Show every property of activity ID.", examples: ["liveactivity get focus --json"]),
        CommandSpec(name: "scheduled", positionals: ["ID"], acceptsKeyValues: false, options: [
            Option(name: "json", takesValue: false, help: "print a JSON array of [time, state, options]"),
        ], summary: "List the scheduled updates of activity ID, earliest first (cancel with update --cancel-at).",
           examples: ["liveactivity scheduled build"]),
        CommandSpec(name: "list", positionals: [], acceptsKeyValues: false, options: [
            Option(name: "json", takesValue: false, help: "print a JSON array"),
        ], summary: "List activities, most relevant first.", examples: ["liveactivity list"]),
        CommandSpec(name: "toggle", positionals: ["KIND"], acceptsKeyValues: true, options: [
            Option(name: "id", takesValue: true, help: "the id to use when starting"),
            Option(name: "relevance", takesValue: true, help: "relevance when starting"),
            Option(name: "app-name", takesValue: true, help: "the application name on the card"),
            Option(name: "app-id", takesValue: true, help: "the app's desktop entry id, e.g. org.gnome.Nautilus (its icon and settings)"),
            Option(name: "reason", takesValue: true, help: "end reason when ending (default ended)",
                   values: ["completed", "cancelled", "ended"]),
        ], summary: "End the live activity of KIND if there is one, else start one (for hotkeys).",
           examples: ["liveactivity toggle focus session-type=Pomodoro"]),
        CommandSpec(name: "pause", positionals: ["ID"], acceptsKeyValues: false, options: [],
                    summary: "Pause the timer of activity ID.", examples: ["liveactivity pause focus"]),
        CommandSpec(name: "resume", positionals: ["ID"], acceptsKeyValues: false, options: [],
                    summary: "Resume the timer of activity ID.", examples: ["liveactivity resume focus"]),
        CommandSpec(name: "extend", positionals: ["ID", "DURATION"], acceptsKeyValues: false, options: [],
                    summary: "Add DURATION (seconds, or 90s, 5m, 1h30m) to the timer of activity ID.",
                    examples: ["liveactivity extend focus 5m"]),
        CommandSpec(name: "action", positionals: ["ID", "[KEY]"], acceptsKeyValues: false, options: [],
                    summary: "Press button KEY of activity ID as a panel does; without KEY, list its buttons.",
                    examples: ["liveactivity action focus", "liveactivity action focus pause"]),
        CommandSpec(name: "enabled", positionals: ["[on|off]"], acceptsKeyValues: false, options: [],
                    summary: "Show, or switch on or off, whether activities may start and cards show.",
                    examples: ["liveactivity enabled off"]),
        CommandSpec(name: "watch", positionals: [], acceptsKeyValues: false, options: [
            Option(name: "format", takesValue: true, help: "plain (default), waybar, i3blocks or polybar",
                   values: WatchFormat.allCases.map(\.rawValue)),
        ], summary: "Print the compact view now and on every change (for status bars).",
           examples: ["liveactivity watch --format waybar"]),
        CommandSpec(name: "status", positionals: [], acceptsKeyValues: false, options: [
            Option(name: "json", takesValue: false, help: "print one JSON object"),
        ], summary: "Show the daemon: version, notification server, kinds, live count, compact text.",
           examples: ["liveactivity status"]),
        CommandSpec(name: "kinds", positionals: [], acceptsKeyValues: false, options: [
            Option(name: "json", takesValue: false, help: "print one JSON object (kinds and problems)"),
        ], summary: "List the kinds with their keys, and kind files that could not be loaded.",
           examples: ["liveactivity kinds"]),
        CommandSpec(name: "history", positionals: [], acceptsKeyValues: false, options: [
            Option(name: "kind", takesValue: true, help: "only activities of this kind"),
            Option(name: "limit", takesValue: true, help: "show the newest N (text default 20; 0 for all)"),
            Option(name: "json", takesValue: false, help: "print a JSON array (all entries unless --limit)"),
            Option(name: "format", takesValue: true, help: "text (default), csv or json: one row per ended activity "
                   + "(kind, title, start, end, reason, focused and away seconds; all unless --limit)",
                   values: ["text", "csv", "json"]),
        ], summary: "Show ended activities, newest first.",
           examples: ["liveactivity history --kind focus --limit 10", "liveactivity history --format csv > focus.csv"]),
        CommandSpec(name: "push-token", positionals: ["ID"], acceptsKeyValues: false, options: [],
                    summary: "Print the push token of activity ID (a secret: it lets a server update it).",
                    examples: ["liveactivity push-token build"]),
        CommandSpec(name: "push-to-start-token", positionals: ["KIND"], acceptsKeyValues: false, options: [],
                    summary: "Print the push-to-start token of KIND (a secret: it lets a server start one).",
                    examples: ["liveactivity push-to-start-token generic"]),
        CommandSpec(name: "stats", positionals: [], acceptsKeyValues: false, options: [
            Option(name: "json", takesValue: false, help: "print a JSON object keyed by kind (with --by: an array)"),
            Option(name: "by", takesValue: true, help: "day or task: sessions, completed, focused and away time per "
                   + "local day or per task (the focus task, else the title)", values: ["day", "task"]),
        ], summary: "Per kind: time completed today, day streak, completed/cancelled/ended counts.",
           examples: ["liveactivity stats", "liveactivity stats --json", "liveactivity stats --by task"]),
        CommandSpec(name: "doctor", positionals: [], acceptsKeyValues: false, options: [],
                    summary: "Check the daemon, notification server, tray, shell add-ons, files and push.",
                    examples: ["liveactivity doctor"]),
    ] + hotkeyCommands

    public static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// The two commands that print files for the shell and for man (`CommandLineTool+Extras`),
    /// not calls of the daemon: name, usage and summary, for `--help` and the man page.
    static let printingCommands: [(name: String, usage: String, summary: String)] = [
        ("completions", "liveactivity completions bash|zsh|fish", "Print the completion script for SHELL (bash, zsh or fish)."),
        ("man", "liveactivity man liveactivity|liveactivityd|liveactivityd.conf",
         "Print a man page: liveactivity, liveactivityd or liveactivityd.conf."),
    ]

    /// The top-level `--help`.
    public static var overview: String {
        var lines = ["Usage: liveactivity COMMAND [ARGS...]", "",
                     "Start, update and end Live Activities shown by liveactivityd.", "", "Commands:"]
        let width = (all.map(\.name.count).max() ?? 0) + 2
        for spec in all { lines.append("  " + spec.name.padding(toLength: width, withPad: " ", startingAt: 0) + spec.summary) }
        for (name, _, summary) in printingCommands {
            lines.append("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + summary)
        }
        lines += ["", "Run 'liveactivity COMMAND --help' for a command's arguments and options.",
                  "Exit status: 0 done, 1 refused by the daemon, 2 usage error, 3 no daemon on the bus."]
        return lines.joined(separator: "\n")
    }
}
