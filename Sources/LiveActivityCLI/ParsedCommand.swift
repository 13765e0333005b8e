import Foundation

/// A command line split by its `CommandSpec`: positionals, `key=value` words and options.
struct ParsedCommand {
    let spec: CommandSpec
    var positionals: [String] = []
    var keyValues: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []
    var wantsHelp = false

    init(spec: CommandSpec, words: [String]) throws(CLIError) {
        self.spec = spec
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
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

    /// A time option: unix seconds, or `+DURATION` from `now`.
    func time(_ name: String, now: Double) throws(CLIError) -> Int64? {
        guard let text = options[name] else { return nil }
        if text.hasPrefix("+") {
            return Int64(now) + (try Self.duration(String(text.dropFirst()), what: "--\(name)"))
        }
        guard let seconds = Int64(text) else { throw .usage("--\(name) \(text): expected unix seconds or +DURATION") }
        return seconds
    }

    func number(_ name: String) throws(CLIError) -> Double? {
        guard let text = options[name] else { return nil }
        guard let value = Double(text), value.isFinite else { throw .usage("--\(name) \(text): expected a number") }
        return value
    }

    /// Seconds from `90`, `90s`, `25m`, `2h` or `1h30m`.
    static func duration(_ text: String, what: String) throws(CLIError) -> Int64 {
        if let plain = Int64(text) { return plain }
        var total: Int64 = 0
        var digits = ""
        for character in text {
            if character.isNumber { digits.append(character); continue }
            guard let amount = Int64(digits) else { throw .usage("\(what) \(text): expected a duration like 90s, 25m or 1h30m") }
            switch character {
            case "s": total += amount
            case "m": total += amount * 60
            case "h": total += amount * 3600
            default: throw .usage("\(what) \(text): expected a duration like 90s, 25m or 1h30m")
            }
            digits = ""
        }
        guard digits.isEmpty, !text.isEmpty else { throw .usage("\(what) \(text): expected a duration like 90s, 25m or 1h30m") }
        return total
    }
}
