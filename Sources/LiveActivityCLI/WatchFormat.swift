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

        public init(compactText: String, title: String = "", body: String = "", status: String = "", progress: Double? = nil) {
            self.compactText = compactText
            self.title = title
            self.body = body
            self.status = status
            self.progress = progress
        }

        /// What shows when no daemon is there.
        public static let absent = Snapshot(compactText: "", status: "absent")
    }

    /// One line (no newline) for `snapshot`.
    public func line(_ snapshot: Snapshot) -> String {
        var snapshot = snapshot
        snapshot.compactText = Self.oneLine(snapshot.compactText)
        let tooltip = [snapshot.title, snapshot.body].filter { !$0.isEmpty }.joined(separator: "\n")
        switch self {
        case .plain:
            return snapshot.compactText
        case .polybar:
            return snapshot.compactText.replacingOccurrences(of: "%", with: "%%")
        case .waybar:
            var object: [String: Any] = ["text": snapshot.compactText, "tooltip": tooltip,
                                         "class": snapshot.status.isEmpty ? "idle" : snapshot.status]
            if let progress = snapshot.progress, progress >= 0 { object["percentage"] = ShownPercent.of(progress) }
            return Self.json(object)
        case .i3blocks:
            return Self.json(["full_text": snapshot.compactText, "short_text": snapshot.compactText])
        }
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
