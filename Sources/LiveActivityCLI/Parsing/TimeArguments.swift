import ActivityModel

/// A schema that can tell which keys of a kind hold a time (`"type": "time"`).
public protocol TimeKeySchema {
    func isTimeKey(kind: String, key: String) -> Bool
}

extension KindFileSchema: TimeKeySchema {
    public func isTimeKey(kind: String, key: String) -> Bool {
        guard let declared = catalog.kind(named: kind) else { return false }
        return (declared.attributes[key] ?? declared.state[key])?.type == .time
    }
}

/// Rewrites the human times of time-typed `key=value` words (`start-time=20:00`) to unix
/// seconds before they are typed, so the bus still carries integers. Start keys (a name
/// with "start") read `HH:MM` as the latest such moment not in the future; others as the next.
enum TimeArguments {
    static func resolve(_ words: [String], kind: String?, schema: KeySchema, clock: HumanTime) throws(CLIError) -> [String] {
        guard let kind, let times = schema as? TimeKeySchema else { return words }
        var resolved: [String] = []
        for word in words {
            guard let equals = word.firstIndex(of: "=") else { resolved.append(word); continue }
            var key = String(word[..<equals])
            let text = String(word[word.index(after: equals)...])
            for prefix in ["attr.", "state."] where key.hasPrefix(prefix) { key.removeFirst(prefix.count) }
            guard !key.contains(":"), times.isTimeKey(kind: kind, key: key), Int64(text) == nil else {
                resolved.append(word)
                continue
            }
            let anchor: HumanTime.Anchor = key.contains("start") ? .past : .future
            guard let seconds = clock.moment(text, anchor: anchor) else {
                if let problem = HumanTime.clockProblem(text) { throw .usage("\(key)=\(text): \(problem)") }
                throw .usage("\(key)=\(text): expected a time: \(HumanTime.acceptedForms)")
            }
            resolved.append("\(word[..<equals])=\(seconds)")
        }
        return resolved
    }
}
