/// Where a segment stands: already passed, the one the activity is in, or still ahead.
public enum SegmentState: String, Sendable, Equatable, CaseIterable {
    case done, current, upcoming
}

/// One part of an activity's whole (a fasting phase, a build step), as a panel draws it: its
/// label, its share of the whole bar, where it stands, and how much of it is filled.
public struct ActivitySegment: Equatable, Sendable {
    public var label: String
    /// The part of the whole this segment takes, above 0; the shares of a bar sum to 1.
    public var share: Double
    public var state: SegmentState
    /// How much of this segment is filled, 0...1: 1 when done, 0 when upcoming.
    public var fill: Double

    public init(label: String, share: Double, state: SegmentState, fill: Double) {
        self.label = label
        self.share = share
        self.state = state
        self.fill = fill
    }
}

/// A marked moment on the bar (a phase boundary, an alert, a client's milestone).
public struct ActivityPoint: Equatable, Sendable {
    /// Where on the whole bar, 0...1.
    public var position: Double
    public var label: String

    public init(position: Double, label: String) {
        self.position = position
        self.label = label
    }
}

/// An activity's progress drawn in segments (Android 16's `ProgressStyle` analogue): what every
/// surface needs to draw it without knowing the kind. The position moves by whole percents of
/// the bar, so a timer's continuous progress makes no new render between two of them.
public struct SegmentedProgress: Equatable, Sendable {
    public var segments: [ActivitySegment]
    public var points: [ActivityPoint]
    /// How far along the whole bar the activity is, 0...1 (whole percents).
    public var position: Double
    /// One line for cards that draw the bar themselves (the `value` hint):
    /// "Fasting 12h 34m of 16h · then Eating window 8h".
    public var summary: String

    public init(segments: [ActivitySegment], points: [ActivityPoint], position: Double, summary: String) {
        self.segments = segments
        self.points = points
        self.position = position
        self.summary = summary
    }

    /// The segment the activity is in, if any.
    public var current: ActivitySegment? { segments.first { $0.state == .current } }

    /// Whether surfaces draw it apart from a plain bar: one segment (a focus session) says
    /// nothing a plain bar does not, so cards and panels draw segments from two on.
    public var isDrawnApart: Bool { segments.count > 1 }
}
