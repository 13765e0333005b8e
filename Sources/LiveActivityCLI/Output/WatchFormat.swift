import ActivityModel
import Foundation

/// What `liveactivity watch` prints for one state of the compact view, per status bar:
/// plain text, a waybar JSON object, an i3blocks JSON object, or a polybar line.
public enum WatchFormat: String, CaseIterable, Sendable {
    case plain, waybar, i3blocks, polybar

    /// The compact view and the most relevant activity's card, as read from the daemon.
    public struct Snapshot: Equatable, Sendable {
        public var compactText: String
        public var title: String
        public var body: String
        public var status: String
        public var progress: Double?
        /// The activity's segments and points (phases, steps), if it has them.
        public var segments: SegmentedProgress?

        public init(compactText: String, title: String = "", body: String = "", status: String = "", progress: Double? = nil,
                    segments: SegmentedProgress? = nil) {
            self.compactText = compactText
            self.title = title
            self.body = body
            self.status = status
            self.progress = progress
            self.segments = segments
        }

        /// What shows when no daemon is there.
        public static let absent = Snapshot(compactText: "", status: "absent")
    }

    /// One line (no newline) for `snapshot`.
    public func line(_ snapshot: Snapshot) -> String {
        var snapshot = snapshot
        snapshot.compactText = Self.oneLine(snapshot.compactText)
        let bar = snapshot.segments.map { SegmentBarText.bar($0) } ?? ""
        let tooltip = [snapshot.title, snapshot.body, bar, snapshot.segments?.summary ?? ""]
            .filter { !$0.isEmpty }.joined(separator: "\n")
        switch self {
        case .plain:
            return snapshot.compactText
        case .polybar:
            return snapshot.compactText.replacingOccurrences(of: "%", with: "%%")
        case .waybar:
            var object: [String: Any] = ["text": snapshot.compactText, "tooltip": tooltip,
                                         "class": snapshot.status.isEmpty ? "idle" : snapshot.status]
            if let progress = snapshot.progress, progress >= 0 { object["percentage"] = ShownPercent.of(progress) }
            if let segmented = snapshot.segments { object.merge(Self.segmentFields(segmented, bar: bar)) { _, new in new } }
            return Self.json(object)
        case .i3blocks:
            return Self.json(["full_text": snapshot.compactText, "short_text": snapshot.compactText])
        }
    }

    /// waybar's extra fields for scripts (waybar itself reads text, tooltip, class, percentage):
    /// `segments` (label, share, state, fill), `points` (position, label), `segment` (the
    /// current one's label), `segment-text` and `segment-bar` (the text bar with boundaries).
    static func segmentFields(_ segmented: SegmentedProgress, bar: String) -> [String: Any] {
        [
            "segments": segmented.segments.map { ["label": $0.label, "share": $0.share, "state": $0.state.rawValue, "fill": $0.fill] },
            "points": segmented.points.map { ["position": $0.position, "label": $0.label] },
            "segment": segmented.current?.label ?? "",
            "segment-text": segmented.summary,
            "segment-bar": bar,
        ]
    }

    /// Status bars read one line per update: line breaks in client text become spaces.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
    }

    private static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
