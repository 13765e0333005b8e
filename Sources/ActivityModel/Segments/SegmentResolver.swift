/// Works out an activity's segmented progress at one moment, and when it next reads
/// differently: from the segments a client gave in its state (`ClientSegments`), else from its
/// kind's phases (a 16:8 fast is 16 h of fasting, then 8 h of eating).
struct SegmentResolver {
    let evaluator: TemplateEvaluator

    private var activity: Activity { evaluator.activity }

    func resolve() -> (segmented: SegmentedProgress?, nextChange: UnixTime?) {
        if let client = try? ClientSegments.read(from: activity.state) {
            return client.step.map { (stepped(client, step: $0), nil) } ?? byProgress(client)
        }
        return fromPhases()
    }

    // MARK: Client segments

    /// "Step 2 of 5": the steps before are done, this one is current and not filled yet.
    private func stepped(_ client: ClientSegments, step: Int) -> SegmentedProgress {
        let index = step - 1
        let segments = client.parts.enumerated().map { offset, part in
            ActivitySegment(label: part.label, share: part.share,
                            state: offset < index ? .done : offset == index ? .current : .upcoming,
                            fill: offset < index ? 1 : 0)
        }
        let position = client.parts.prefix(index).reduce(0) { $0 + $1.share }
        var summary = "\(client.shownLabel(index)) · step \(step) of \(client.parts.count)"
        if index + 1 < client.parts.count { summary += " · then \(client.shownLabel(index + 1))" }
        return SegmentedProgress(segments: segments, points: client.points, position: Self.whole(position), summary: summary)
    }

    /// The current segment is the one the activity's progress (state or timer) is in.
    private func byProgress(_ client: ClientSegments) -> (SegmentedProgress, UnixTime?) {
        let reading = evaluator.progress()
        let position = Self.whole(reading?.value ?? 0)
        var segments: [ActivitySegment] = []
        var start = 0.0
        var currentIndex: Int?
        for (index, part) in client.parts.enumerated() {
            let end = index == client.parts.count - 1 ? 1 : start + part.share
            let segment: ActivitySegment
            if position >= end - 1e-9 {
                segment = ActivitySegment(label: part.label, share: part.share, state: .done, fill: 1)
            } else if position >= start - 1e-9 {
                currentIndex = currentIndex ?? index
                segment = ActivitySegment(label: part.label, share: part.share, state: .current,
                                          fill: Self.clamped((position - start) / part.share))
            } else {
                segment = ActivitySegment(label: part.label, share: part.share, state: .upcoming, fill: 0)
            }
            segments.append(segment)
            start = end
        }
        var summary = "\(client.shownLabel(client.parts.count - 1)) · done"
        if let currentIndex {
            summary = client.shownLabel(currentIndex)
            if currentIndex + 1 < client.parts.count { summary += " · then \(client.shownLabel(currentIndex + 1))" }
        }
        return (SegmentedProgress(segments: segments, points: client.points, position: position, summary: summary),
                reading?.nextPercentChange)
    }

    // MARK: Phases

    /// One segment per phase of known length; an open last phase (it lasts until the end) has
    /// none, but its start is a point.
    private func fromPhases() -> (segmented: SegmentedProgress?, nextChange: UnixTime?) {
        guard let timer = activity.timer else { return (nil, nil) }
        let phases = activity.phases
        let finite = phases.prefix { $0.end != nil }
        guard let total = finite.last?.end, total > 0 else { return (nil, nil) }
        let running = max(0, timer.position(at: evaluator.now))
        let percent = ShownPercent.of(running / total)
        let position = Double(percent) / 100
        let pastAll = running >= total && finite.count == phases.count
        let currentIndex = pastAll ? phases.count : activity.phaseIndex(at: evaluator.now)
        var segments: [ActivitySegment] = []
        var points: [ActivityPoint] = []
        for (index, phase) in finite.enumerated() {
            let start = activity.phaseStart(index)
            let length = (phase.end ?? start) - start
            let state: SegmentState = index < currentIndex ? .done : index == currentIndex ? .current : .upcoming
            let fill = state == .done ? 1 : state == .upcoming ? 0 : Self.clamped((position * total - start) / length)
            segments.append(ActivitySegment(label: phase.label, share: length / total, state: state, fill: fill))
            if index + 1 < phases.count, let end = phase.end {
                points.append(ActivityPoint(position: end / total, label: phases[index + 1].label))
            }
        }
        var nextChange: UnixTime?
        if percent < 100 { nextChange = wall(timer, reaching: Double(percent + 1) * total / 100) }
        let summary = phaseSummary(timer, running: running, currentIndex: currentIndex, nextChange: &nextChange)
        return (SegmentedProgress(segments: segments, points: points, position: position, summary: summary), nextChange)
    }

    /// "Fasting 12h 34m of 16h · then Eating window 8h", by the minute.
    private func phaseSummary(_ timer: TimerState, running: Double, currentIndex: Int, nextChange: inout UnixTime?) -> String {
        let phases = activity.phases
        guard currentIndex < phases.count else { return "\(BidiIsolation.isolated(phases[phases.count - 1].label)) · done" }
        let phase = phases[currentIndex]
        let start = activity.phaseStart(currentIndex)
        let elapsedMinutes = (max(0, running - start) / 60 + 1e-9).rounded(.down)
        var summary = "\(BidiIsolation.isolated(phase.label)) \(Self.duration(elapsedMinutes * 60))"
        if let end = phase.end {
            summary += " of \(Self.duration(end - start))"
            nextChange = TimedText.earliest(nextChange, wall(timer, reaching: end))
            if (elapsedMinutes + 1) * 60 < end - start {
                nextChange = TimedText.earliest(nextChange, wall(timer, reaching: start + (elapsedMinutes + 1) * 60))
            }
        } else {
            nextChange = TimedText.earliest(nextChange, wall(timer, reaching: start + (elapsedMinutes + 1) * 60))
        }
        if currentIndex + 1 < phases.count {
            let next = phases[currentIndex + 1]
            summary += " · then \(BidiIsolation.isolated(next.label))"
            if let end = next.end, let nextStart = phase.end { summary += " \(Self.duration(end - nextStart))" }
        }
        return summary
    }

    /// The wall time the timer reaches `target`, while it runs and the activity is live.
    private func wall(_ timer: TimerState, reaching target: Double) -> UnixTime? {
        guard activity.isLive else { return nil }
        return timer.wallTime(reaching: target)
    }

    private static func duration(_ seconds: Double) -> String {
        TimeFormat.duration.formatDuration((seconds / 60 + 1e-9).rounded(.down) * 60)
    }

    /// A fraction at the whole percent shown.
    private static func whole(_ fraction: Double) -> Double { Double(ShownPercent.of(fraction)) / 100 }

    private static func clamped(_ fraction: Double) -> Double {
        fraction.isFinite ? min(max(fraction, 0), 1) : 0
    }
}

extension ClientSegments {
    /// A part's label as `SegmentText` sets it among its own words (isolated, `BidiIsolation`).
    fileprivate func shownLabel(_ index: Int) -> String { BidiIsolation.isolated(parts[index].label) }
}
