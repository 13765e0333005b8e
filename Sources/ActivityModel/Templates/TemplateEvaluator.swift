/// A text and the earliest moment it could read differently (nil: not by itself).
struct TimedText: Equatable {
    var text: String
    var nextChange: UnixTime?

    /// The earlier of two change moments.
    static func earliest(_ lhs: UnixTime?, _ rhs: UnixTime?) -> UnixTime? {
        switch (lhs, rhs) {
        case let (left?, right?): return min(left, right)
        case let (left?, nil): return left
        case let (nil, right): return right
        }
    }
}

/// Fills a kind's templates for one activity at one moment, and works out when each filled
/// text next changes at the granularity its format shows. A client's value set among the
/// template's own text (`{attr.session-type} · {state.task}`) is isolated (`BidiIsolation`); a
/// template that is one placeholder alone gives the client's text exactly as it was sent.
struct TemplateEvaluator {
    let activity: Activity
    let kind: Kind
    let now: UnixTime
    let timeZoneOffset: Double
    let showSeconds: Bool

    func evaluate(_ template: Template) -> TimedText {
        var alone = false
        if template.parts.count == 1, case .placeholder = template.parts[0] { alone = true }
        return evaluate(template.parts, isOptional: false, isolating: !alone)
    }

    private func evaluate(_ parts: [Template.Part], isOptional: Bool, isolating: Bool) -> TimedText {
        var result = TimedText(text: "", nextChange: nil)
        var missingValue = false
        for part in parts {
            switch part {
            case .text(let text):
                result.text += text
            case .optional(let inner):
                let filled = evaluate(inner, isOptional: true, isolating: isolating)
                result.text += filled.text
                result.nextChange = TimedText.earliest(result.nextChange, filled.nextChange)
            case .placeholder(let alternatives):
                let filled = choose(alternatives, isolating: isolating)
                if filled.text.isEmpty { missingValue = true }
                result.text += filled.text
                result.nextChange = TimedText.earliest(result.nextChange, filled.nextChange)
            }
        }
        if isOptional, missingValue { result.text = "" }
        return result
    }

    /// The first alternative with text; changes of the ones tried count.
    private func choose(_ alternatives: [Template.Alternative], isolating: Bool) -> TimedText {
        var nextChange: UnixTime?
        for alternative in alternatives {
            let filled: TimedText
            switch alternative {
            case .literal(let text): filled = TimedText(text: text, nextChange: nil)
            case .value(let source, let format): filled = value(source, format, isolating: isolating)
            }
            nextChange = TimedText.earliest(nextChange, filled.nextChange)
            if !filled.text.isEmpty { return TimedText(text: filled.text, nextChange: nextChange) }
        }
        return TimedText(text: "", nextChange: nextChange)
    }

    /// A placeholder's value; a client's (attribute, state, app name) isolated when `isolating`.
    private func value(_ source: PlaceholderSource, _ format: TimeFormat?, isolating: Bool) -> TimedText {
        let client = { (text: String) in TimedText(text: isolating ? BidiIsolation.isolated(text) : text) }
        switch source {
        case .attribute(let key): return client(staticText(activity.attributes[key], format))
        case .state(let key): return client(staticText(activity.state[key], format))
        case .live(.app): return client(activity.appName ?? "")
        case .live(let live): return liveValue(live, format)
        }
    }

    /// A stored value, formatted when it is a number and a format is given.
    private func staticText(_ value: Value?, _ format: TimeFormat?) -> String {
        guard let value else { return "" }
        guard let format, format != .text, let number = value.number else { return value.displayText }
        switch format.effective(showSeconds: showSeconds) {
        case .percent: return TimeFormat.formatPercent(number)
        case .clock: return TimeFormat.formatClock(number, timeZoneOffset: timeZoneOffset)
        case let shown:
            let unit = shown.durationUnit
            return shown.formatDuration((number / unit + 1e-9).rounded(.down) * unit)
        }
    }

    private func liveValue(_ live: LiveValue, _ format: TimeFormat?) -> TimedText {
        switch live {
        case .kind: return TimedText(text: kind.displayName)
        case .reason: return TimedText(text: activity.isLive ? "" : activity.reason?.label ?? "")
        case .app: return TimedText(text: activity.appName ?? "")
        case .status: return TimedText(text: activity.status.rawValue)
        case .now: return clockNow()
        case .progress: return progressText(format)
        default: return TimerValues(evaluator: self).value(live, format)
        }
    }

    /// The wall clock, changing on the local minute.
    private func clockNow() -> TimedText {
        let local = now + timeZoneOffset
        let nextMinute = ((local / 60 + 1e-9).rounded(.down) + 1) * 60 - timeZoneOffset
        return TimedText(text: TimeFormat.formatClock(now, timeZoneOffset: timeZoneOffset), nextChange: nextMinute)
    }

    /// The progress as `45%`, changing when the whole percent does.
    private func progressText(_ format: TimeFormat?) -> TimedText {
        guard let reading = progress() else { return TimedText(text: "") }
        if format == .text { return TimedText(text: Value.plainNumber(reading.value), nextChange: nil) }
        return TimedText(text: TimeFormat.formatPercent(reading.value), nextChange: reading.nextPercentChange)
    }

    /// The progress from the kind's sources (0...1) and when its whole percent next changes.
    func progress() -> (value: Double, nextPercentChange: UnixTime?)? {
        for source in kind.progressSources {
            switch source {
            case .state(let key):
                if let number = activity.state[key]?.number { return (min(max(number, 0), 1), nil) }
            case .timer:
                if let reading = TimerValues(evaluator: self).progress() { return reading }
            }
        }
        return nil
    }
}

extension TimedText {
    init(text: String) {
        self.init(text: text, nextChange: nil)
    }
}
