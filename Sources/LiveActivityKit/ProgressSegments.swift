import DBus

/// Progress in segments and points for an activity's content (Android 16's `ProgressStyle`
/// analogue; ActivityKit has none): "step 2 of 5" of a build, or labelled parts with their
/// shares. Set it on `ActivityContent.segments`; it travels as the daemon's `segments`,
/// `step` and `points` state keys (docs/dbus-api.md), so every panel draws it as a segmented bar.
public struct ProgressSegments: Equatable, Hashable, Sendable {
    /// One part of the whole: its label and share (all shares given and summing to 1, or none: equal parts).
    public struct Segment: Equatable, Hashable, Sendable {
        public var label: String
        public var share: Double?

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

    public var segments: [Segment]
    /// The current segment, from 1; nil: the daemon follows the content's `progress`.
    public var currentStep: Int?
    public var points: [Point]

    public init(segments: [Segment], currentStep: Int? = nil, points: [Point] = []) {
        self.segments = segments
        self.currentStep = currentStep
        self.points = points
    }

    /// `count` equal steps "Step 1" … "Step n", `current` the one under way.
    public static func steps(_ count: Int, current: Int?) -> ProgressSegments {
        ProgressSegments(segments: (0..<max(0, count)).map { Segment("Step \($0 + 1)") }, currentStep: current)
    }

    /// Read back from the daemon's state keys (nil when they name no segments).
    init?(stateValues state: [String: DBusValue]) {
        var parts: [Segment] = []
        if let listed = state["segments"]?.string, !listed.isEmpty {
            parts = listed.split(separator: "|", omittingEmptySubsequences: false).map { item in
                let text = String(item)
                if let colon = text.lastIndex(of: ":"), let share = Double(text[text.index(after: colon)...]) {
                    return Segment(String(text[..<colon]), share: share)
                }
                return Segment(text)
            }
        } else if let count = state["steps"]?.integer, count > 0 {
            parts = (0..<Int(count)).map { Segment("Step \($0 + 1)") }
        }
        guard !parts.isEmpty else { return nil }
        var points: [Point] = []
        if let listed = state["points"]?.string, !listed.isEmpty {
            points = listed.split(separator: "|").compactMap { item in
                let pieces = item.split(separator: ":", maxSplits: 1)
                guard let first = pieces.first, let position = Double(first) else { return nil }
                return Point(at: position, label: pieces.count > 1 ? String(pieces[1]) : "")
            }
        }
        self.init(segments: parts, currentStep: state["step"]?.integer.map { Int($0) }, points: points)
    }

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
    /// The state to send: the encoded `state`, plus the segments' keys when set.
    func withSegments(_ values: [String: DBusValue]) -> [String: DBusValue] {
        guard let segments else { return values }
        return values.merging(segments.stateValues) { _, segmentKey in segmentKey }
    }
}
