import ActivityModel
import DBus

/// The names of KDE's job progress API (`org.kde.JobViewServerV2` / `org.kde.JobViewV2`),
/// served by Plasma's notification applet; see `KDEJobMirror`.
enum KDEJobNames {
    static let serverName = "org.kde.JobViewServer"
    static let serverPath = "/JobViewServer"
    static let serverInterface = "org.kde.JobViewServerV2"
    static let viewInterface = "org.kde.JobViewV2"
    /// KJob::Killable: the job gets a cancel button, which emits `cancelRequested`.
    static let killable: Int32 = 1
}

/// What the job of one activity shows: a pure value, so the mirror sends only what changed.
struct KDEJobContent: Equatable {
    /// The job's heading (the activity's title).
    var title: String
    /// Shown under the heading (the activity's body, on one line).
    var message: String
    /// 0...100.
    var percent: UInt32
    /// The activity is paused.
    var suspended: Bool

    /// The job content of an activity, or nil when it should have no job (no progress, or not live).
    static func of(title: String, body: String, progress: Double?, live: Bool, paused: Bool) -> KDEJobContent? {
        guard live, let progress, progress.isFinite else { return nil }
        let clamped = min(max(progress, 0), 1)
        let message = body.split(whereSeparator: \.isNewline).joined(separator: " · ")
        return KDEJobContent(title: title, message: message, percent: UInt32(ShownPercent.of(clamped)),
                             suspended: paused)
    }

    /// The JobViewV2 calls that turn a job showing `old` (nil: a new job) into one showing this.
    func calls(from old: KDEJobContent?) -> [(member: String, arguments: [DBusValue])] {
        var calls: [(member: String, arguments: [DBusValue])] = []
        if old?.title != title || old?.message != message {
            calls.append(("setInfoMessage", [.string(title)]))
            calls.append(("setDescriptionField", [.uint32(0), .string(""), .string(message)]))
        }
        if old?.percent != percent { calls.append(("setPercent", [.uint32(percent)])) }
        if old?.suspended ?? false != suspended { calls.append(("setSuspended", [.boolean(suspended)])) }
        return calls
    }
}
