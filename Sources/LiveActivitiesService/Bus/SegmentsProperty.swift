import ActivityModel
import DBus

/// The `Segments`, `Points` and `SegmentText` properties (Get keys `segments`, `points`,
/// `segment-text`): the activity's progress in parts, in a form a panel draws without knowing the
/// kind. `Segments` is `a(sdsd)`: label, share of the whole (the shares sum to 1), state
/// (`done`, `current`, `upcoming`) and how much of the segment is filled (0…1); `Points` is
/// `a(ds)`: position on the whole bar (0…1) and label. Both are empty when the activity has no
/// phases and the client gave no segments.
enum SegmentsProperty {
    static let segmentsSignature = "a(sdsd)"
    static let pointsSignature = "a(ds)"

    static func segments(of snapshot: ActivitySnapshot) -> DBusValue {
        .array(elementSignature: "(sdsd)", (snapshot.rendered.segments?.segments ?? []).map { segment in
            .structure([.string(segment.label), .double(segment.share), .string(segment.state.rawValue), .double(segment.fill)])
        })
    }

    static func points(of snapshot: ActivitySnapshot) -> DBusValue {
        .array(elementSignature: "(ds)", (snapshot.rendered.segments?.points ?? []).map { point in
            .structure([.double(point.position), .string(point.label)])
        })
    }

    static func text(of snapshot: ActivitySnapshot) -> DBusValue {
        .string(snapshot.rendered.segments?.summary ?? "")
    }
}
