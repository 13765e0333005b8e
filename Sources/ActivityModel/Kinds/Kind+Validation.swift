/// Checking and completing the attributes and state a client sends for a kind.
extension Kind {
    /// Validates Start attributes, then applies derived values and defaults (`now` for times).
    func acceptAttributes(_ given: [String: Value], now: UnixTime) throws(ActivityError) -> [String: Value] {
        try accept(given, current: [:], specs: attributes, extra: acceptsExtraAttributes,
                   role: "attribute", plural: "attributes", applyDefaults: true, now: now)
    }

    /// Validates state keys and merges them into `current`; `isStart` applies defaults.
    func acceptState(_ given: [String: Value], current: [String: Value], isStart: Bool, now: UnixTime) throws(ActivityError) -> [String: Value] {
        let merged = try accept(given, current: current, specs: state, extra: acceptsExtraState,
                                role: "state key", plural: "state keys", applyDefaults: isStart, now: now)
        _ = try ClientSegments.read(from: merged)
        return merged
    }

    private func accept(
        _ given: [String: Value], current: [String: Value], specs: [String: KeySpec], extra: Bool,
        role: String, plural: String, applyDefaults: Bool, now: UnixTime
    ) throws(ActivityError) -> [String: Value] {
        var result = current
        let sortedGiven = given.sorted(by: { $0.key < $1.key })
        for (key, value) in sortedGiven {
            if let spec = specs[key] {
                result[key] = try spec.accept(value, role: "\(role) \(Quoted.text(key))")
            } else if extra {
                if case .double(let number) = value, !number.isFinite {
                    throw .invalidArgument("\(role) \(Quoted.text(key)): expected a finite number, got \(value.typeDescription)")
                }
                result[key] = value
            } else {
                let known = specs.keys.sorted().joined(separator: ", ")
                throw .invalidArgument("unknown \(role) \(Quoted.text(key)) for kind \"\(name)\"; "
                                       + (known.isEmpty ? "this kind has no \(plural)" : "known \(plural): \(known)"))
            }
        }
        // The keys given, in order, that imply others (`derived`).
        for (key, _) in sortedGiven {
            guard let spec = specs[key], !spec.derived.isEmpty, let chosen = result[key],
                  let implied = spec.derived[chosen.displayText] else { continue }
            for (target, value) in implied.sorted(by: { $0.key < $1.key }) {
                if given[target] != nil, let explicit = result[target], !KeySpec.same(explicit, value) {
                    throw .invalidArgument(
                        "\(role) \"\(target)\": \(key) \"\(chosen.displayText)\" means \(value.displayText), "
                        + "got \(explicit.typeDescription); give only one of them")
                }
                result[target] = value
            }
        }
        // Defaults, then the first required key (in name order) still missing.
        var firstMissing: (key: String, spec: KeySpec)?
        for (key, spec) in specs where result[key] == nil {
            if applyDefaults, let fallback = spec.defaultValue {
                switch fallback {
                case .value(let value): result[key] = value
                case .now: result[key] = .double(now)
                }
            } else if spec.required, firstMissing.map({ key < $0.key }) ?? true {
                firstMissing = (key, spec)
            }
        }
        if let firstMissing {
            throw .invalidArgument("\(role) \"\(firstMissing.key)\" is missing; expected \(firstMissing.spec.expectation)")
        }
        return result
    }

    /// Resolves the timer from attributes, or nil when the kind has none or its attributes are
    /// absent. `given` are the attributes the client sent: without its start, the start is
    /// the daemon's "now" (`startTakenFromClock`).
    func makeTimer(attributes: [String: Value], given: [String: Value], now: UnixTime) throws(ActivityError) -> TimerState? {
        guard let spec = timer else { return nil }
        let start = spec.startAttribute.flatMap { attributes[$0]?.number } ?? now
        let fromClock = spec.startAttribute.map { given[$0] == nil } ?? true
        var duration: Double?
        if let endKey = spec.endAttribute {
            guard let end = attributes[endKey]?.number else { return nil }
            guard end > start else {
                throw .invalidArgument("attribute \"\(endKey)\": expected a time after the start "
                                       + "\(Value.plainNumber(start)), got \(Value.plainNumber(end))")
            }
            duration = end - start
        } else if let durationSpec = spec.duration {
            guard let seconds = durationSpec.seconds(attributes: attributes) else { return nil }
            guard seconds > 0, InputLimits.isDuration(seconds) else {
                throw .invalidArgument("attributes give the timer a length of \(Value.plainNumber(seconds)) seconds; "
                                       + "expected more than 0 and at most \(Value.plainNumber(InputLimits.longestDuration)) (100 years)")
            }
            duration = seconds
        }
        return TimerState(start: start, duration: duration, extended: 0, pausedAt: nil, pausedTotal: 0,
                          countsDown: spec.countsDown, expiry: spec.expiry, startTakenFromClock: fromClock)
    }

    /// Resolves the phases from attributes: a phase of no length is skipped, except that the
    /// last one then lasts until the activity ends. A phase longer than
    /// `InputLimits.longestDuration` is refused.
    func makePhases(attributes: [String: Value]) throws(ActivityError) -> [PhaseState] {
        var result: [PhaseState] = []
        var position = 0.0
        for (index, phase) in phases.enumerated() {
            let isLast = index == phases.count - 1
            if let seconds = phase.duration?.seconds(attributes: attributes), seconds > 0 {
                guard InputLimits.isDuration(seconds) else {
                    throw .invalidArgument("attributes give phase \(Quoted.text(phase.name)) a length of \(Value.plainNumber(seconds)) "
                                           + "seconds; expected at most \(Value.plainNumber(InputLimits.longestDuration)) (100 years)")
                }
                position += seconds
                result.append(PhaseState(name: phase.name, label: phase.label, end: position))
            } else if isLast {
                result.append(PhaseState(name: phase.name, label: phase.label, end: nil))
            }
        }
        return result
    }

    /// The declared phase for a resolved one (by name).
    func phaseSpec(named name: String) -> PhaseSpec? { phases.first { $0.name == name } }
}

/// The payload size rule: the UTF-8 bytes of every key and string value, 8 bytes per number,
/// 1 per boolean, over attributes and state together.
public enum PayloadSize {
    public static func of(attributes: [String: Value], state: [String: Value]) -> Int {
        func size(_ values: [String: Value]) -> Int {
            values.reduce(0) { total, entry in
                let valueSize: Int
                switch entry.value {
                case .string(let text): valueSize = text.utf8.count
                case .int, .double: valueSize = 8
                case .bool: valueSize = 1
                }
                return total + entry.key.utf8.count + valueSize
            }
        }
        return size(attributes) + size(state)
    }
}
