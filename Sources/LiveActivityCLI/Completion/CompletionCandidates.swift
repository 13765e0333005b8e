import ActivityModel

/// What a shell may complete at the cursor, worked out from `CommandSpec.all` (commands,
/// options, their values), the kind files (kind names, keys, allowed values) and the daemon
/// (activity ids). The shell scripts only ask `liveactivity __complete WORDS... CURRENT`, so
/// nothing about commands is written twice and completions cannot drift from the parser.
struct CompletionCandidates {
    /// The kinds as the CLI reads them.
    let catalog: KindCatalog
    /// The activity ids, asked of the daemon only when needed (a short timeout, no activation).
    let activityIDs: () -> [String]
    /// The kind of an activity id (for `update ID key=`), or nil.
    let kindOfActivity: (String) -> String?

    /// The candidates for `current`, the word under the cursor, after `words` (the words
    /// between `liveactivity` and it). Every candidate starts with `current`.
    func candidates(words: [String], current: String) -> [String] {
        all(words: words, current: current).filter { $0.hasPrefix(current) }
    }

    private func all(words: [String], current: String) -> [String] {
        guard let name = words.first else {
            return CommandSpec.all.map(\.name) + ["--help", "--version"]
        }
        guard let spec = CommandSpec.named(name) else { return [] }
        let rest = Array(words.dropFirst())
        if let previous = rest.last, previous.hasPrefix("--"),
           let option = spec.option(named: String(previous.dropFirst(2))), option.takesValue {
            return option.name == "kind" ? catalog.names : option.values
        }
        if current.hasPrefix("-") {
            return spec.options.map { "--" + $0.name } + ["--help"]
        }
        let positionals = Self.positionals(rest, spec: spec)
        if positionals.count < spec.positionals.count {
            switch spec.positionals[positionals.count] {
            case "KIND": return catalog.names
            case "ID": return activityIDs()
            case "[on|off]": return ["on", "off"]
            default: return []
            }
        }
        guard spec.acceptsKeyValues, let first = positionals.first else { return [] }
        let kindName = spec.positionals.first == "KIND" ? first : kindOfActivity(first)
        guard let kind = kindName.flatMap({ catalog.kind(named: $0) }) else { return [] }
        let keys = (spec.name == "start" || spec.name == "toggle" ? kind.attributes : [:]).merging(kind.state) { a, _ in a }
        if let equals = current.firstIndex(of: "=") {
            let key = String(current[..<equals])
            guard let declared = keys[key] else { return [] }
            return Self.values(of: declared).map { "\(key)=\($0)" }
        }
        return keys.keys.sorted().map { $0 + "=" }
    }

    /// The positional words among `words` (not options, their values, or key=value words).
    static func positionals(_ words: [String], spec: CommandSpec) -> [String] {
        var found: [String] = []
        var skipNext = false
        for word in words {
            if skipNext { skipNext = false; continue }
            if word.hasPrefix("--") {
                let name = String(word.dropFirst(2))
                skipNext = !name.contains("=") && spec.option(named: name)?.takesValue == true
                continue
            }
            if spec.acceptsKeyValues, !found.isEmpty, word.contains("=") { continue }
            found.append(word)
        }
        return found
    }

    /// The values a key may take, when there are few: its allowed list, true/false, or
    /// examples of the time forms.
    static func values(of key: KeySpec) -> [String] {
        if let allowed = key.allowed { return allowed.map(\.displayText) }
        switch key.type {
        case .boolean: return ["true", "false"]
        case .time: return key.name.contains("start") ? ["now", "-1h", "-3h"] : ["+25m", "+1h"]
        default: return []
        }
    }
}
