import ActivityFiles
import Dispatch
import FoundationEssentials

/// Turns the desktop's Do Not Disturb on while a quieting session is live and puts the user's
/// own state back afterwards, also after a crash (`QuietMarker`). The service says what it
/// wants (`setQuiet`) from its thread; the work (running `dunstctl`, `gsettings`…, which may
/// block on a hung server) happens in order on a worker queue of its own, so a reply on the
/// bus never waits for it. Each step reads the marker, so the steps are idempotent: turning on
/// twice keeps the first previous state, restoring without a marker does nothing.
final class DesktopQuieter: @unchecked Sendable {
    private let markerPath: String
    private let makeController: (DoNotDisturbChoice) -> any DoNotDisturb
    private let queue = DispatchQueue(label: "liveactivityd.do-not-disturb")
    /// Controllers by choice, touched only on `queue` (Plasma's holds its inhibition cookie).
    private var controllers: [DoNotDisturbChoice: any DoNotDisturb] = [:]
    /// What the service last asked for (nil: nothing yet); service thread only.
    private(set) var wantsQuiet: Bool?
    /// The mechanism of the last request to quiet (nil: none known then); service thread only.
    private var lastChoice: DoNotDisturbChoice?

    /// The mechanism the desktop is quiet by now, as last asked (nil: not quiet, or no mechanism).
    var quietBy: DoNotDisturbChoice? { wantsQuiet == true ? lastChoice : nil }
    /// What the last step did; touched only on `queue`.
    private var lastOutcome = "not used yet"

    init(stateDirectory: String,
         makeController: @escaping (DoNotDisturbChoice) -> any DoNotDisturb = DoNotDisturbControllers.make) {
        markerPath = QuietMarker.fileName(in: stateDirectory)
        self.makeController = makeController
    }

    /// Asks for the desktop to be quiet or not. The first call after start also settles a
    /// marker left by a daemon that died; later calls act only on a change. `choice` is the
    /// mechanism for the server in use (nil: none, so nothing can be turned on).
    func setQuiet(_ quiet: Bool, choice: @autoclosure () -> DoNotDisturbChoice?, now: Double) {
        // Asked again while quiet but without a server to act on: try once the server is known.
        let retry = quiet && wantsQuiet == true && lastChoice == nil
        guard wantsQuiet != quiet || retry else { return }
        let choice = quiet ? choice() : nil
        if retry && choice == nil { return }
        wantsQuiet = quiet
        lastChoice = choice
        queue.async { [self] in
            if quiet { quietNow(choice, now: now) } else { restoreNow() }
        }
    }

    /// Waits until every step asked for so far has run (tests, and exit).
    func drain() { queue.sync {} }

    /// What the last step did, for the log and tests.
    var outcome: String { queue.sync { lastOutcome } }

    private func note(_ text: String) {
        lastOutcome = text
        Log.info("Do Not Disturb: \(text)")
    }

    private func controller(_ choice: DoNotDisturbChoice) -> any DoNotDisturb {
        if let known = controllers[choice] { return known }
        let made = makeController(choice)
        controllers[choice] = made
        return made
    }

    /// Marker first (with the user's state), then on. With a marker already there (a session
    /// still live across a restart), only makes sure it is on.
    private func quietNow(_ choice: DoNotDisturbChoice?, now: Double) {
        if let marker = QuietMarker.load(markerPath) {
            do {
                try controller(marker.mechanism).turnOn()
                note("kept on (\(marker.mechanism.rawValue); the user's state \(quoted(marker.previous)) is saved)")
            } catch {
                note("could not turn on \(marker.mechanism.rawValue): \(error)")
            }
            return
        }
        guard let choice else {
            note("not available: the notification server has no Do Not Disturb the daemon can drive")
            return
        }
        let mechanism = controller(choice)
        do {
            let previous = try mechanism.currentState()
            try QuietMarker(mechanism: choice, previous: previous, since: now).save(markerPath)
            try mechanism.turnOn()
            note("on (\(choice.rawValue); the user's state was \(quoted(previous)))")
        } catch {
            note("could not turn on \(choice.rawValue): \(error)")
        }
    }

    /// Puts the saved state back and removes the marker; keeps the marker when that fails, so
    /// the next start tries again.
    private func restoreNow() {
        guard let marker = QuietMarker.load(markerPath) else { return }
        do {
            try controller(marker.mechanism).restore(marker.previous)
            QuietMarker.remove(markerPath)
            note("restored (\(marker.mechanism.rawValue) back to \(quoted(marker.previous)))")
        } catch {
            note("could not restore \(marker.mechanism.rawValue) to \(quoted(marker.previous)): \(error); will retry at the next start")
        }
    }

    private func quoted(_ text: String) -> String { "\"\(text)\"" }
}
