import ActivityModel
import FoundationEssentials
import Push

/// The daemon's settings (read by the daemon, and by the CLI's `doctor` and man page), from `$XDG_CONFIG_HOME/liveactivities/liveactivityd.conf`: plain
/// `key = value` lines (`#` comments). A missing file means the defaults; a bad line is
/// reported with its number and the defaults are kept for that key.
public struct DaemonConfig: Equatable, Sendable {
    /// Show cards (notifications) at all; `LIVEACTIVITIES_NO_CARDS=1` also turns them off.
    public var cards = true
    /// Offer a StatusNotifierItem (tray icon with the compact text) when a watcher exists.
    public var tray = true
    /// Mirror activities with progress as KDE jobs under Plasma.
    public var kdeJobs = true
    /// At most one Notify per activity per this many seconds.
    public var minimumNotifyInterval = 1.0
    public var limits = Limits()
    /// The `push-*` keys: the MQTT broker to take push messages from (none: push is off).
    public var push = PushSettings()
    /// Let kinds that ask for it (`quiets-desktop`) turn on the desktop's Do Not Disturb.
    public var quietDesktop = true
    /// Seconds of user idleness after which a running session of a `pauses-when-idle` kind
    /// pauses itself; 0 turns idle pausing off.
    public var idlePauseAfter = 180.0
    /// What the lock screen may show of live activities (`lock-screen`; issue 26).
    public var lockScreen = LockScreenPrivacy.full
    /// Publish the most relevant timer as an MPRIS player (`mpris`; issue 26).
    public var mpris = true

    public init() {}

    /// The keys a config file may set, with what each expects (for messages, the man page and docs/configuration.md).
    public static let keys: [(key: String, expects: String)] = [
        ("cards", "on or off"), ("tray", "on or off"), ("kde-jobs", "on or off"),
        ("min-notify-interval", "seconds, at least 0.1"), ("max-live-activities", "an integer from 1 to 1000"),
        ("max-payload-bytes", "an integer from 256 to 1048576"), ("dismiss-after", "seconds from 0 to 14400"),
        ("max-ended-activities", "an integer from 0 to 1000"),
        ("quiet-desktop", "on or off"), ("idle-pause-after", "seconds from 30 to 86400, or 0 for never"),
        ("lock-screen", "full, private or off"), ("mpris", "on or off"),
    ] + PushSettings.keys

    /// Parses a config text; returns the config and one message per line it could not use.
    public static func parse(_ text: String) -> (DaemonConfig, [String]) {
        var config = DaemonConfig()
        var problems: [String] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingBlanks() } ?? ""
            guard !line.isEmpty else { continue }
            guard let equals = line.firstIndex(of: "=") else {
                problems.append("line \(index + 1): expected key = value, got \"\(line)\"")
                continue
            }
            let key = line[..<equals].trimmingBlanks()
            let value = line[line.index(after: equals)...].trimmingBlanks()
            if let problem = config.set(key, value) { problems.append("line \(index + 1): \(problem)") }
        }
        return (config, problems)
    }

    /// Loads `path`; a missing file is the defaults. Each problem is handed to `report`
    /// (the daemon logs it, `liveactivity doctor` prints it).
    public static func load(path: String, report: (String) -> Void) -> DaemonConfig {
        guard let data = FileManager.default.contents(atPath: path) else { return DaemonConfig() }
        let (config, problems) = parse(String(decoding: data, as: UTF8.self))
        for problem in problems { report("\(path): \(problem)") }
        return config
    }

    /// Sets one key; returns what was wrong, or nil.
    private mutating func set(_ key: String, _ value: String) -> String? {
        let expects = Self.keys.first { $0.key == key }?.expects
        guard let expects else {
            return "unknown key \"\(key)\"; known keys: \(Self.keys.map(\.key).joined(separator: ", "))"
        }
        let wrong = "\(key): expected \(expects), got \"\(value)\""
        switch key {
        case "cards", "tray", "kde-jobs", "quiet-desktop", "mpris":
            guard let on = Self.switchValue(value) else { return wrong }
            switch key {
            case "cards": cards = on
            case "tray": tray = on
            case "kde-jobs": kdeJobs = on
            case "mpris": mpris = on
            default: quietDesktop = on
            }
        case "lock-screen":
            guard let privacy = LockScreenPrivacy(rawValue: value.lowercased()) else { return wrong }
            lockScreen = privacy
        case "idle-pause-after":
            guard let seconds = Double(value), seconds == 0 || (30...86_400).contains(seconds) else { return wrong }
            idlePauseAfter = seconds
        case "min-notify-interval":
            guard let seconds = Double(value), seconds >= 0.1, seconds <= 60 else { return wrong }
            minimumNotifyInterval = seconds
        case "max-live-activities":
            guard let count = Int(value), (1...1000).contains(count) else { return wrong }
            limits.maxLiveActivities = count
        case "max-payload-bytes":
            guard let bytes = Int(value), (256...1_048_576).contains(bytes) else { return wrong }
            limits.maxPayloadBytes = bytes
        case _ where key.hasPrefix("push-"):
            return push.set(key, value)
        case "dismiss-after":
            guard let seconds = Double(value), seconds >= 0, seconds <= 14_400 else { return wrong }
            limits.defaultDismissDelay = seconds
        case "max-ended-activities":
            guard let count = Int(value), (0...1000).contains(count) else { return wrong }
            limits.maxEndedActivities = count
        default:
            return wrong
        }
        return nil
    }

    private static func switchValue(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: return nil
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing blanks: spaces and tabs, not line breaks (what
    /// Foundation's `trimmingCharacters(in: .whitespaces)` removes).
    fileprivate func trimmingBlanks() -> String {
        let isBlank = { (character: Character) in character.isWhitespace && !character.isNewline }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
