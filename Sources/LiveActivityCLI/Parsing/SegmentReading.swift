import ActivityModel
import DBus

/// Reads an activity's segmented progress back from its `Get` reply (`segments` a(sdsd),
/// `points` a(ds), `segment-text` s), so the CLI shows what panels draw.
enum SegmentReading {
    /// The segments of a `Get` reply, or nil when it has none or a share or fill is not a finite
    /// number (waybar's JSON line cannot carry NaN or infinity; it would fall back to `{}`).
    static func read(_ properties: [String: DBusValue]) -> SegmentedProgress? {
        guard case .array(_, let rows)? = properties["segments"], !rows.isEmpty else { return nil }
        var segments: [ActivitySegment] = []
        for row in rows {
            guard case .structure(let fields) = row, fields.count == 4, let label = fields[0].string,
                  let share = fields[1].double, let state = fields[2].string.flatMap(SegmentState.init(rawValue:)),
                  let fill = fields[3].double, share.isFinite, fill.isFinite else { return nil }
            segments.append(ActivitySegment(label: label, share: share, state: state, fill: fill))
        }
        var points: [ActivityPoint] = []
        if case .array(_, let rows)? = properties["points"] {
            for row in rows {
                guard case .structure(let fields) = row, fields.count == 2, let position = fields[0].double,
                      position.isFinite, let label = fields[1].string else { continue }
                points.append(ActivityPoint(position: position, label: label))
            }
        }
        let position = segments.reduce(0) { $0 + $1.share * $1.fill }
        return SegmentedProgress(segments: segments, points: points, position: position,
                                 summary: properties["segment-text"]?.string ?? "")
    }
}
