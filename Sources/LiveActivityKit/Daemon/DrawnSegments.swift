import DBus

/// Reads an activity's segments back as the daemon draws them, from `Get`'s `segments`
/// (`a(sdsd)`: label, share, state, fill), `points` (`a(ds)`) and `segment-text`, so a kind's
/// own phases come back typed as well as the ones a client sent.
enum DrawnSegments {
    /// The client's keys that make the segments its own rather than the kind's.
    static let clientKeys = ["segments", "steps"]

    /// The segments of a `Get` reply; nil when the activity has none.
    static func read(properties: [String: DBusValue], state: [String: DBusValue]) -> ProgressSegments? {
        guard case .array(_, let rows)? = properties["segments"] else { return nil }
        let segments = rows.compactMap(segment(from:))
        guard !segments.isEmpty, segments.count == rows.count else { return nil }
        var points: [ProgressSegments.Point] = []
        if case .array(_, let pointRows)? = properties["points"] {
            points = pointRows.compactMap { row in
                guard case .structure(let fields) = row, fields.count == 2, let position = fields[0].double,
                      let label = fields[1].string else { return nil }
                return ProgressSegments.Point(at: position, label: label)
            }
        }
        let isClients = clientKeys.contains { key in state[key].map { $0.string != "" } ?? false }
        var drawn = ProgressSegments(segments: segments,
                                     currentStep: isClients ? state["step"]?.integer.map { Int($0) } : nil,
                                     points: points)
        drawn.text = properties["segment-text"]?.string ?? ""
        drawn.isKindPhases = !isClients
        return drawn
    }

    private static func segment(from row: DBusValue) -> ProgressSegments.Segment? {
        guard case .structure(let fields) = row, fields.count == 4, let label = fields[0].string,
              let share = fields[1].double, let state = fields[2].string.flatMap(ProgressSegments.SegmentState.init(rawValue:)),
              let fill = fields[3].double else { return nil }
        var segment = ProgressSegments.Segment(label, share: share)
        segment.state = state
        segment.fill = fill
        return segment
    }
}
