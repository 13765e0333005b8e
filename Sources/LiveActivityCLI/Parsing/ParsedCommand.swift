import ActivityModel
import Foundation

/// A command line split by its `CommandSpec`: positionals, `key=value` words and options.
struct ParsedCommand {
    let spec: CommandSpec
    var positionals: [String] = []
    var keyValues: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []
    /// The words after `--`, for a command with `trailing` words (`bind KEYS -- COMMAND...`).
    var trailing: [String] = []
    var wantsHelp = false

    init(spec: CommandSpec, words: [String]) throws(CLIError) {
        self.spec = spec
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--", spec.trailing != nil {
                trailing = Array(words[index...])
                break
            }
            if word == "--help" || word == "-h" { wantsHelp = true; continue }
            if word.hasPrefix("--") {
                var name = String(word.dropFirst(2))
                var inlineValue: String?
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                guard let option = spec.option(named: name) else {
                    throw .usage("\(spec.name): unknown option --\(name); see 'liveactivity \(spec.name) --help'")
                }
                if option.takesValue {
                    if let inlineValue { options[name] = inlineValue; continue }
                    guard index < words.count else { throw .usage("\(spec.name): --\(name) needs a value") }
                    options[name] = words[index]
                    index += 1
                } else {
                    flags.insert(name)
                }
            } else if spec.acceptsKeyValues && positionals.count == requiredPositionals && word.contains("=") {
                keyValues.append(word)
            } else {
                positionals.append(word)
            }
        }
        if wantsHelp { return }
        let optionalCount = spec.positionals.filter { $0.hasPrefix("[") }.count
        guard positionals.count >= requiredPositionals, positionals.count <= requiredPositionals + optionalCount else {
            throw .usage("usage: \(spec.usage)")
        }
    }

    private var requiredPositionals: Int { spec.positionals.filter { !$0.hasPrefix("[") }.count }

    /// A time option in any of `HumanTime.acceptedForms`, as unix seconds. Options name
    /// moments ahead (stale, dismissal), so `HH:MM` is its next occurrence.
    func time(_ name: String, clock: HumanTime) throws(CLIError) -> Int64? {
        guard let text = options[name] else { return nil }
        guard let seconds = clock.moment(text, anchor: .future) else {
            if let problem = HumanTime.clockProblem(text) { throw .usage("--\(name) \(text): \(problem)") }
            throw .usage("--\(name) \(text): expected a time: \(HumanTime.acceptedForms)")
        }
        return seconds
    }

    /// `time(name)` for a moment that must come within 366 days (a scheduled start or update,
    /// as the daemon allows), refused here in the words typed rather than by the bus option.
    func scheduleTime(_ name: String, clock: HumanTime) throws(CLIError) -> Int64? {
        guard let seconds = try time(name, clock: clock), let text = options[name] else { return nil }
        if Double(seconds) - Double(clock.now) > ScheduleLimits.longestAhead {
            let days = (Double(seconds) - Double(clock.now)) / 86_400
            throw .usage("--\(name) \(text): that is \(Int(days.rounded(.down))) days ahead; at most 366 days ahead")
        }
        return seconds
    }

    func number(_ name: String) throws(CLIError) -> Double? {
        guard let text = options[name] else { return nil }
        guard let value = Double(text), value.isFinite else { throw .usage("--\(name) \(text): expected a number") }
        return value
    }

    /// Seconds from `90`, `90s`, `25m`, `2h`, `1d`, `1h30m` or `+25m` (`HumanTime.duration`).
    static func duration(_ text: String, what: String) throws(CLIError) -> Int64 {
        guard let seconds = HumanTime.duration(text) else {
            throw .usage("\(what) \(text): expected a duration: seconds (90), or 90s, 25m, 2h, 1d, 1h30m, +25m")
        }
        return seconds
    }
}
