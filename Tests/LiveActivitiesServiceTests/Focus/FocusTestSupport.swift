import ActivityFiles
import DBus
import Foundation
@testable import Idle
import Notifications
@testable import Quiet
import TestSupport
@testable import LiveActivitiesService

/// A desktop's Do Not Disturb as a value the tests read back: its state text (as `dunstctl
/// is-paused` prints it) and every step the daemon took, shared by the daemons of one test so a
/// restarted one finds the state the killed one left.
final class FakeDoNotDisturb: DoNotDisturb, @unchecked Sendable {
    let choice: DoNotDisturbChoice
    private let lock = NSLock()
    private var current: String
    private var recorded: [String] = []

    init(choice: DoNotDisturbChoice = .dunstPause, state: String = "false") {
        self.choice = choice
        current = state
    }

    var state: String { lock.withLock { current } }
    var steps: [String] { lock.withLock { recorded } }

    func currentState() throws -> String { lock.withLock { current } }
    func turnOn() throws { lock.withLock { current = "true"; recorded.append("on") } }
    func restore(_ previous: String) throws { lock.withLock { current = previous; recorded.append("restore \(previous)") } }
    func notQuietState(from current: String) -> String { "false" }
}

extension ServiceWorld {
    /// A world whose service quiets the desktop through `dnd` (on a server named dunst) and
    /// pauses idle sessions after `idlePauseAfter` (idleness from the bus's idle monitor, if any).
    /// `waylandDisplay`: the compositor to take idleness from (nil: none); `idleTuning`: the idle
    /// sources' waits (a short call timeout for a test that hangs a call).
    static func focused(_ dnd: FakeDoNotDisturb, config: DaemonConfig = DaemonConfig(), at start: Double = ServiceWorld.t0,
                        home: TemporaryDirectory? = nil, server: String = "dunst", waylandDisplay: String? = nil,
                        idleTuning: IdleTuning = IdleTuning()) throws -> ServiceWorld {
        try ServiceWorld(at: start, home: home, serverInfo: ServerInfo(name: server, vendor: "tests", version: "1",
                                                                       specVersion: "1.2", capabilities: ["body", "actions"])) {
            service, connection, paths in
            service.focus.attach(config: config, connection: connection, stateDirectory: paths.stateDirectory,
                                 waylandDisplay: waylandDisplay, idleTuning: idleTuning) { _ in dnd }
        }
    }

    /// The Do Not Disturb steps asked for so far have run: past the settling of the manager
    /// (at most `settleInterval` after a call), where the service asks for them.
    func drainDoNotDisturb() {
        advance(by: ActivityService.settleInterval * 2)
        onService { $0.focus.drainDoNotDisturb() }
    }

    var quietMarker: URL { URL(fileURLWithPath: paths.stateDirectory + "/quiet-desktop.json") }

    /// The history entries written so far.
    func history() -> [HistoryEntryView] {
        guard let text = try? String(contentsOfFile: paths.stateDirectory + "/history.jsonl", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).map(HistoryEntryView.init)
        }
    }
}

/// One history line as a test reads it.
struct HistoryEntryView {
    let fields: [String: Any]
    var reason: String? { fields["reason"] as? String }
    var activeSeconds: Double? { fields["active-seconds"] as? Double }
    var awaySeconds: Double? { fields["away-seconds"] as? Double }
    var title: String? { fields["title"] as? String }
}
