import ActivityModel
import DBus

/// The names of KDE's job progress API (`org.kde.JobViewServerV2` / `org.kde.JobViewV2`, and
/// `org.kde.JobViewV3` on the same job objects), served by Plasma's notification applet; see
/// `KDEJobMirror`.
package enum KDEJobNames {
    static let serverName = "org.kde.JobViewServer"
    static let serverPath = "/JobViewServer"
    static let serverInterface = "org.kde.JobViewServerV2"
    static let viewInterface = "org.kde.JobViewV2"
    /// Plasma 5.18+: `update(a{sv})`, whose `infoMessage` is the text under the job's heading.
    static let viewInterfaceV3 = "org.kde.JobViewV3"
    /// KJob::Killable: the job gets a cancel button, which emits `cancelRequested`.
    static let killable: Int32 = 1
    /// What `requestView` is given as the desktop entry: none (the daemon has no .desktop
    /// file; a made-up one only makes Plasma log "Failed to find service for Unity Launcher").
    static let desktopEntry = ""
}

/// One JobViewV2/V3 call on a job object.
package struct KDEJobCall: Equatable {
    var interface: String = KDEJobNames.viewInterface
    var member: String
    var arguments: [DBusValue]
}

/// What the job of one activity shows: a pure value, so the mirror sends only what changed.
///
/// Plasma 5.27 draws a job as: the application name (header), the summary (`setInfoMessage`
/// in V2, hidden when it equals the application name), the body text (V3's `infoMessage`),
/// then the bar; the description fields only when the user expands the job. Its bar is a
/// busy bar while the percent is 0 and no bytes or files were processed, so a job at 0%
/// reports one byte of one processed: the bar stays a determinate, empty one.
package struct KDEJobContent: Equatable {
    /// The job's heading (the activity's title).
    var title: String
    /// Shown under the heading (the activity's body, on one line).
    var message: String
    /// 0...100.
    var percent: UInt32
    /// The activity is paused.
    var suspended: Bool
    /// The application name in the job's header: the `app-name` option or the kind's name.
    var appName: String = ""
    /// The header's icon (the activity's icon name).
    var iconName: String = ""

    /// The job content of an activity, or nil when it should have no job (no progress, or not live).
    package static func of(title: String, body: String, progress: Double?, live: Bool, paused: Bool,
                   appName: String = "", iconName: String = "") -> KDEJobContent? {
        guard live, let progress, progress.isFinite else { return nil }
        let clamped = min(max(progress, 0), 1)
        let message = body.split(whereSeparator: \.isNewline).map { BidiIsolation.isolated(String($0)) }.joined(separator: " · ")
        return KDEJobContent(title: title, message: message, percent: UInt32(ShownPercent.of(clamped)),
                             suspended: paused, appName: appName, iconName: iconName)
    }

    /// The hints of `requestView`: who the job is from, shown at once (no 500 ms delay).
    var requestHints: [String: DBusValue] {
        var hints: [String: DBusValue] = ["title": .string(title), "transient": .boolean(true),
                                          "immediate": .boolean(true)]
        if !appName.isEmpty { hints["application-display-name"] = .string(appName) }
        if !iconName.isEmpty { hints["application-icon-name"] = .string(iconName) }
        return hints
    }

    /// Bytes reported processed (and in total) so that Plasma draws a determinate bar: 1 at 0%, else 0.
    var barHoldBytes: UInt64 { percent == 0 ? 1 : 0 }

    /// The calls that turn a job showing `old` (nil: a new job) into one showing this.
    func calls(from old: KDEJobContent?) -> [KDEJobCall] {
        var calls: [KDEJobCall] = []
        if old?.title != title {
            calls.append(KDEJobCall(member: "setInfoMessage", arguments: [.string(title)]))
        }
        if old?.message != message {
            calls.append(KDEJobCall(interface: KDEJobNames.viewInterfaceV3, member: "update",
                                    arguments: [.vardict(["infoMessage": .string(message)])]))
            // Servers without V3 (and Plasma's expanded view) read the body here.
            calls.append(KDEJobCall(member: "setDescriptionField", arguments: [.uint32(0), .string(""), .string(message)]))
        }
        if (old?.barHoldBytes ?? 0) != barHoldBytes {
            for member in ["setTotalAmount", "setProcessedAmount"] {
                calls.append(KDEJobCall(member: member, arguments: [.uint64(barHoldBytes), .string("bytes")]))
            }
        }
        if old?.percent != percent { calls.append(KDEJobCall(member: "setPercent", arguments: [.uint32(percent)])) }
        if old?.suspended ?? false != suspended {
            calls.append(KDEJobCall(member: "setSuspended", arguments: [.boolean(suspended)]))
        }
        return calls
    }
}
