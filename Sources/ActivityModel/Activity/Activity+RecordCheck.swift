/// The bounds of the edge (`InputLimits`, `BusText`) applied to a record read back from
/// `state.json` or the journal: a record written by an older version, edited by hand or
/// damaged on disk may hold a time of 1e300 or a NUL, and must then be set aside like any
/// unreadable record rather than restored into a daemon that would fail on it at every start.
extension Activity {
    /// Why this restored record cannot be used, or nil when it is within every bound.
    public var recordProblem: String? {
        var times: [(String, Double?)] = [("startedAt", startedAt), ("updatedAt", updatedAt), ("staleAt", staleAt),
                                          ("endedAt", endedAt), ("dismissAt", dismissAt), ("expiresAt", expiresAt)]
        if let timer {
            times += [("timer.start", timer.start), ("timer.pausedAt", timer.pausedAt)]
            let lengths: [(String, Double?)] = [("timer.duration", timer.duration), ("timer.extended", timer.extended),
                                                ("timer.pausedTotal", timer.pausedTotal)]
            for case let (name, length?) in lengths where !InputLimits.isDuration(length) {
                return "\(name) \(length) is not a length of at most 100 years"
            }
        }
        for (index, scheduled) in timeline.enumerated() {
            times += [("scheduledUpdates[\(index)].at", scheduled.at), ("scheduledUpdates[\(index)].stale-at", scheduled.options.staleAt)]
        }
        for case let (name, time?) in times where !InputLimits.isTime(time) {
            return "\(name) \(time) is not \(InputLimits.timeRangeText)"
        }
        guard relevance.isFinite else { return "relevance \(relevance) is not a finite number" }
        for (index, phase) in phases.enumerated() {
            if let end = phase.end, !(end.isFinite && abs(end) <= InputLimits.latestTime) {
                return "phases[\(index)].end \(end) is out of range"
            }
            if let problem = BusText.problem(phase.name, role: "phases[\(index)].name")
                ?? BusText.problem(phase.label, role: "phases[\(index)].label") { return problem }
        }
        if let problem = BusText.problem(kind, role: "kind") ?? appName.flatMap({ BusText.problem($0, role: "appName") }) {
            return problem
        }
        if let problem = appID.flatMap(DesktopEntryID.problem) { return "appID: \(problem)" }
        if let problem = Self.valuesProblem(attributes, role: "attribute") ?? Self.valuesProblem(state, role: "state key") {
            return problem
        }
        if let problem = ClientSegments.problem(in: state) { return problem }
        guard timeline.count <= ScheduleLimits.maxScheduledUpdates else {
            return "\(timeline.count) scheduled updates, more than \(ScheduleLimits.maxScheduledUpdates)"
        }
        for (index, scheduled) in timeline.enumerated() {
            let role = "scheduledUpdates[\(index)]"
            if let problem = Self.valuesProblem(scheduled.state, role: "\(role) state key") { return problem }
            guard scheduled.options.relevance?.isFinite ?? true else { return "\(role).relevance is not finite" }
            let texts = [("alert-title", scheduled.options.alertTitle), ("alert-body", scheduled.options.alertBody),
                         ("alert-sound", scheduled.options.alertSound)]
            for case let (name, text?) in texts {
                if let problem = BusText.problem(text, role: "\(role).\(name)") { return problem }
            }
        }
        return nil
    }

    /// Why the keys and values of `values` are not fit for the bus (a NUL, a non-finite number).
    private static func valuesProblem(_ values: [String: Value], role: String) -> String? {
        do throws(ActivityError) {
            try BusText.check(values, role: role)
        } catch {
            return error.message
        }
        for (key, value) in values {
            if case .double(let number) = value, !number.isFinite { return "\(role) \(Quoted.text(key)) is not finite" }
        }
        return nil
    }
}
