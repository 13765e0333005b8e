/// The timer and phase placeholders of one activity at one moment: what they show and when
/// that text next changes (elapsed rounds down, remaining rounds up, like a stopwatch and a countdown).
struct TimerValues {
    let evaluator: TemplateEvaluator

    private var activity: Activity { evaluator.activity }

    /// The position clamped to the start (a timer that has not started shows zero).
    private func position(_ timer: TimerState) -> Double { max(0, timer.position(at: evaluator.now)) }

    /// The wall time at which the position reaches `target`, or nil if the timer is not running.
    private func wall(_ timer: TimerState, reaching target: Double) -> UnixTime? {
        // A pending activity's timer will run from its start: its end is known too.
        guard timer.isRunning, activity.status.holdsPlace else { return nil }
        return evaluator.now + (target - timer.position(at: evaluator.now))
    }

    func value(_ live: LiveValue, _ format: TimeFormat?) -> TimedText {
        guard let timer = activity.timer else { return TimedText(text: "") }
        let position = position(timer)
        switch live {
        case .elapsed:
            return counting(up: position, from: 0, cap: nil, timer, format)
        case .remaining:
            guard let duration = timer.duration else { return TimedText(text: "") }
            return counting(downTo: duration, position: position, timer, format)
        case .timer:
            if timer.countsDown, let duration = timer.duration {
                return counting(downTo: duration, position: position, timer, format)
            }
            return counting(up: position, from: 0, cap: nil, timer, format)
        case .goal:
            guard let duration = timer.duration else { return TimedText(text: "") }
            return fixedDuration(duration, format ?? .duration)
        case .end:
            return clock(timer.duration.flatMap { wall(timer, reaching: $0) }, format)
        case .start:
            return clock(timer.start, format)
        case .phase, .phaseElapsed, .phaseRemaining, .phaseEnd, .phaseNext:
            return phaseValue(live, timer, position, format)
        case .progress, .kind, .reason, .app, .status, .now:
            return TimedText(text: "")
        }
    }

    private func phaseValue(_ live: LiveValue, _ timer: TimerState, _ position: Double, _ format: TimeFormat?) -> TimedText {
        guard !activity.phases.isEmpty else { return TimedText(text: "") }
        let index = activity.phaseIndex(at: evaluator.now)
        let phase = activity.phases[index]
        let start = activity.phaseStart(index)
        let boundary = phase.end.flatMap { wall(timer, reaching: $0) }
        switch live {
        case .phase:
            return TimedText(text: phase.label, nextChange: boundary)
        case .phaseNext:
            let next = index + 1 < activity.phases.count ? activity.phases[index + 1].label : ""
            return TimedText(text: next, nextChange: boundary)
        case .phaseElapsed:
            return counting(up: max(0, position - start), from: start, cap: phase.end.map { $0 - start }, timer, format)
        case .phaseRemaining:
            guard let end = phase.end else { return TimedText(text: "") }
            return counting(downTo: end, position: position, timer, format)
        default:
            return clock(boundary, format)
        }
    }

    /// The timer's progress (0...1) and when its whole percent next changes.
    func progress() -> (value: Double, nextPercentChange: UnixTime?)? {
        guard let timer = activity.timer, let duration = timer.duration, duration > 0 else { return nil }
        let fraction = min(max(position(timer) / duration, 0), 1)
        let step = TimeFormat.percentStep(fraction)
        let next = step < 100 ? wall(timer, reaching: Double(step + 1) * duration / 100) : nil
        return (fraction, next)
    }

    /// The format a duration is shown in, and its step in seconds.
    private func durationFormat(_ format: TimeFormat?) -> TimeFormat {
        switch format {
        case nil, .percent?, .clock?: return TimeFormat.timer.effective(showSeconds: evaluator.showSeconds)
        case let given?: return given.effective(showSeconds: evaluator.showSeconds)
        }
    }

    /// An increasing duration: `value` seconds since `offset` (in timer position), up to `cap`.
    private func counting(up value: Double, from offset: Double, cap: Double?, _ timer: TimerState, _ format: TimeFormat?) -> TimedText {
        let shown = durationFormat(format)
        let unit = shown.durationUnit
        let steps = (value / unit + 1e-9).rounded(.down)
        let nextValue = (steps + 1) * unit
        let next = cap.map { nextValue > $0 + 1e-9 } == true ? nil : wall(timer, reaching: offset + nextValue)
        return TimedText(text: shown.formatDuration(steps * unit), nextChange: next)
    }

    /// A decreasing duration: the time left until the position reaches `end`.
    private func counting(downTo end: Double, position: Double, _ timer: TimerState, _ format: TimeFormat?) -> TimedText {
        let shown = durationFormat(format)
        let unit = shown.durationUnit
        let left = max(0, end - position)
        let steps = (left / unit - 1e-9).rounded(.up)
        let next = steps > 0 ? wall(timer, reaching: end - (steps - 1) * unit) : nil
        return TimedText(text: shown.formatDuration(max(0, steps) * unit), nextChange: next)
    }

    private func fixedDuration(_ seconds: Double, _ format: TimeFormat) -> TimedText {
        let shown = durationFormat(format)
        let unit = shown.durationUnit
        return TimedText(text: shown.formatDuration((seconds / unit + 1e-9).rounded(.down) * unit))
    }

    private func clock(_ time: UnixTime?, _ format: TimeFormat?) -> TimedText {
        guard let time else { return TimedText(text: "") }
        if format == .text { return TimedText(text: Value.plainNumber(time)) }
        return TimedText(text: TimeFormat.formatClock(time, timeZoneOffset: evaluator.timeZoneOffset))
    }
}
