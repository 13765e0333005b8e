import DBus

/// Progress in segments and points for an activity's content (Android 16's `ProgressStyle`
/// analogue; ActivityKit has none): "step 2 of 5" of a build, or labelled parts with their
/// shares. Set it on `ActivityContent.segments`; it travels as the daemon's `segments`,
/// `step` and `points` state keys (docs/dbus-api.md), so every panel draws it as a segmented bar.
///
/// Read back (`activities`, `contentUpdates`, `content` after a daemon change) it is what the
/// daemon draws, from its `Segments`, `Points` and `SegmentText` properties: every share given,
/// each segment's `state` and `fill`, and `text`; a kind's own phases (a 16:8 fast) come back too,
/// with `isKindPhases` set.
public struct ProgressSegments: Equatable, Hashable, Sendable {
    /// Where a segment stands, as the daemon reports it.
    public enum SegmentState: String, Equatable, Hashable, Sendable, CaseIterable {
        case done, current, upcoming
    }

    /// One part of the whole: its label and share (all shares given and summing to 1, or none: equal parts).
    public struct Segment: Equatable, Hashable, Sendable {
        public var label: String
        public var share: Double?
        /// Read back from the daemon: where this segment stands; nil in a value you build.
        public internal(set) var state: SegmentState?
        /// Read back from the daemon: how much of this segment is behind, 0…1 (1 when done, 0
        /// when upcoming); nil in a value you build.
        public internal(set) var fill: Double?

        public init(_ label: String, share: Double? = nil) {
            self.label = label
            self.share = share
        }
    }

    /// A mark on the bar at `position` (0…1).
    public struct Point: Equatable, Hashable, Sendable {
        public var position: Double
        public var label: String

        public init(at position: Double, label: String = "") {
            self.position = position
            self.label = label
        }
    }

    public var segments: [Segment] { didSet { isKindPhases = false } }
    /// The current segment, from 1, as the client set it; nil: the daemon follows the content's
    /// `progress` (or the kind's clock). `current` is the one the daemon reports.
    public var currentStep: Int? { didSet { isKindPhases = false } }
    public var points: [Point] { didSet { isKindPhases = false } }
    /// Read back from the daemon: its one line (`SegmentText`, e.g. `Fasting 12h 34m of 16h ·
    /// then Eating window 8h`); empty in a value you build.
    public internal(set) var text = ""
    /// Read back from the daemon: these are the kind's own phases, not keys a client sent. Such a
    /// value is not sent back with an update (the kind draws them itself, and may not take the
    /// keys); changing its segments, step or points makes it the client's, and then it is sent.
    public internal(set) var isKindPhases = false

    public init(segments: [Segment], currentStep: Int? = nil, points: [Point] = []) {
        self.segments = segments
        self.currentStep = currentStep
        self.points = points
    }

    /// `count` equal steps "Step 1" … "Step n", `current` the one under way.
    public static func steps(_ count: Int, current: Int?) -> ProgressSegments {
        ProgressSegments(segments: (0..<max(0, count)).map { Segment("Step \($0 + 1)") }, currentStep: current)
    }

    /// The segment the daemon reports as current (nil in a value you build, and past the last one).
    public var current: Segment? { segments.first { $0.state == .current } }

    /// The state keys that carry it (`|` in a label becomes `/`, the list's separator).
    var stateValues: [String: DBusValue] {
        func clean(_ label: String) -> String { label.replacingOccurrences(of: "|", with: "/") }
        var values: [String: DBusValue] = [
            "segments": .string(segments.map { segment in
                segment.share.map { "\(clean(segment.label)):\($0)" } ?? clean(segment.label)
            }.joined(separator: "|")),
            "points": .string(points.map { $0.label.isEmpty ? "\($0.position)" : "\($0.position):\(clean($0.label))" }
                .joined(separator: "|")),
        ]
        if let currentStep { values["step"] = .int64(Int64(currentStep)) }
        return values
    }
}

extension ActivityContent {
    /// The state to send: the encoded `state`, plus the segments' keys when the client set them
    /// (a kind's phases read back from the daemon stay the kind's).
    func withSegments(_ values: [String: DBusValue]) -> [String: DBusValue] {
        guard let segments, !segments.isKindPhases else { return values }
        return values.merging(segments.stateValues) { _, segmentKey in segmentKey }
    }
}
