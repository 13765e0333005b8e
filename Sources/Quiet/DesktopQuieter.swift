import ActivityFiles
import Dispatch
import FoundationEssentials
import ServiceSupport

/// Turns the desktop's Do Not Disturb on while a quieting session is live and puts the user's
/// own state back afterwards, also after a crash (`QuietMarker`). The service says what it
/// wants (`setQuiet`) from its thread; the work (running `dunstctl`, `gsettings`…, which may
/// block on a hung server) happens in order on a worker queue of its own, so a reply on the
/// bus never waits for it. Each step reads the marker, so the steps are idempotent: turning on
/// twice keeps the first previous state, restoring without a marker does nothing. A marker
/// that cannot be read (garbage, a symbolic link, the wrong shape) means a daemon quieted the
/// desktop but the user's state is lost: the daemon's own "quiet" is never taken for it, and
/// "not quiet" is what comes back, said once in the log.
package final class DesktopQuieter: @unchecked Sendable {
    private let markerPath: String
    private let makeController: (DoNotDisturbChoice) -> any DoNotDisturb
    private let queue = DispatchQueue(label: "liveactivityd.do-not-disturb")
    /// Controllers by choice, touched only on `queue` (Plasma's holds its inhibition cookie).
    private var controllers: [DoNotDisturbChoice: any DoNotDisturb] = [:]
    /// What the service last asked for (nil: nothing yet); service thread only.
    private(set) var wantsQuiet: Bool?
    /// The mechanism of the last request to quiet (nil: none known then); service thread only.
    private var lastChoice: DoNotDisturbChoice?
    /// A restore was asked for with no mechanism known (no server yet): it runs again once one
    /// is, in case the marker is unreadable and names none. Service thread only.
    private var restoredWithoutMechanism = false

    /// The mechanism the desktop is quiet by now, as last asked (nil: not quiet, or no mechanism).
    package var quietBy: DoNotDisturbChoice? { wantsQuiet == true ? lastChoice : nil }
    /// What the last step did; touched only on `queue`.
    private var lastOutcome = "not used yet"

    package init(stateDirectory: String,
         makeController: @escaping (DoNotDisturbChoice) -> any DoNotDisturb = DoNotDisturbControllers.make) {
        markerPath = QuietMarker.fileName(in: stateDirectory)
        self.makeController = makeController
    }

    /// Asks for the desktop to be quiet or not. The first call after start also settles a
    /// marker left by a daemon that died; later calls act only on a change. `choice` is the
    /// mechanism for the server in use (nil: none, so nothing can be turned on).
    package func setQuiet(_ quiet: Bool, choice: @autoclosure () -> DoNotDisturbChoice?, now: Double) {
        // Asked again while quiet but without a server to act on: try once the server is known.
        let retry = quiet && wantsQuiet == true && lastChoice == nil
        let retryRestore = !quiet && wantsQuiet == false && restoredWithoutMechanism
        guard wantsQuiet != quiet || retry || retryRestore else { return }
        let chosen = quiet ? choice() : nil
        if retry && chosen == nil { return }
        // Restoring past an unreadable marker needs a mechanism: the one last quieted by, else the server's.
        let restoreBy = quiet ? nil : lastChoice ?? choice()
        if retryRestore && restoreBy == nil { return }
        restoredWithoutMechanism = !quiet && restoreBy == nil
        wantsQuiet = quiet
        lastChoice = chosen
        queue.async { [self] in
            if quiet { quietNow(chosen, now: now) } else { restoreNow(by: restoreBy) }
        }
    }

    /// Waits until every step asked for so far has run (tests, and exit).
    package func drain() { queue.sync {} }

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
        let reading = QuietMarker.read(markerPath)
        if case .marker(let marker) = reading {
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
        if case .unreadable(let reason) = reading {
            quietPastUnreadableMarker(mechanism, reason: reason, now: now)
            return
        }
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
    private func restoreNow(by fallback: DoNotDisturbChoice?) {
        let marker: QuietMarker
        switch QuietMarker.read(markerPath) {
        case .none: return
        case .unreadable(let reason):
            restorePastUnreadableMarker(fallback, reason: reason)
            return
        case .marker(let read): marker = read
        }
        do {
            try controller(marker.mechanism).restore(marker.previous)
            QuietMarker.remove(markerPath)
            let why = marker.previousUnknown == true ? ": not quiet, as the user's own state was lost with a damaged marker" : ""
            note("restored (\(marker.mechanism.rawValue) back to \(quoted(marker.previous))\(why))")
        } catch {
            note("could not restore \(marker.mechanism.rawValue) to \(quoted(marker.previous)): \(error); will retry at the next start")
        }
    }

    /// A session is live and the marker cannot be read: the desktop may be quiet by a daemon's
    /// doing, so its state now is not the user's. A new marker takes the unreadable one's place
    /// in one rename (a link is replaced, its target untouched) and records the mechanism's "not
    /// quiet" (marked as such), then quiet goes on. Should the write fail, the unreadable marker
    /// stays, and End restores "not quiet" past it all the same.
    private func quietPastUnreadableMarker(_ mechanism: any DoNotDisturb, reason: String, now: Double) {
        let name = mechanism.choice.rawValue
        do {
            let notQuiet = mechanism.notQuietState(from: try mechanism.currentState())
            try QuietMarker(mechanism: mechanism.choice, previous: notQuiet, since: now, previousUnknown: true).save(markerPath)
            try mechanism.turnOn()
            note("on (\(name)); \(markerPath) could not be read (\(reason)), so the user's own state is unknown "
                 + "and \(quoted(notQuiet)) (not quiet) will be restored at the end")
        } catch {
            note("could not turn on \(name) past an unreadable marker (\(reason)): \(error)")
        }
    }

    /// Nothing quiets the desktop now and the marker cannot be read: "not quiet" comes back
    /// through `fallback` (the server's mechanism), and the marker is set aside.
    private func restorePastUnreadableMarker(_ fallback: DoNotDisturbChoice?, reason: String) {
        guard let fallback else {
            note("\(markerPath) could not be read (\(reason)); no Do Not Disturb known yet to put back to not quiet")
            return
        }
        let mechanism = controller(fallback)
        do {
            let notQuiet = mechanism.notQuietState(from: try mechanism.currentState())
            try mechanism.restore(notQuiet)
            QuietMarker.setAside(markerPath)
            note("restored (\(fallback.rawValue) back to \(quoted(notQuiet)): not quiet, as \(markerPath) could not be read "
                 + "(\(reason)) and the user's own state is unknown)")
        } catch {
            note("could not restore \(fallback.rawValue) to not quiet past an unreadable marker (\(reason)): \(error); "
                 + "will retry at the next start")
        }
    }

    private func quoted(_ text: String) -> String { "\"\(text)\"" }
}
