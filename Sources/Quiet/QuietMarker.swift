import ActivityFiles
import FoundationEssentials
import Glibc
import Persistence
import ServiceSupport

/// "I turned Do Not Disturb on; before that it was X": written to the state directory
/// (`quiet-desktop.json`, fsynced) before the daemon turns it on, removed once the user's
/// state is back. A daemon that crashed or was killed in between finds it at start and puts
/// the user's state back unless a quieting session is still live, so nobody is left silenced.
package struct QuietMarker: Codable, Equatable, Sendable {
    var mechanism: DoNotDisturbChoice
    /// What the mechanism's `currentState` returned before the daemon turned it on.
    var previous: String
    /// When the daemon turned it on (unix seconds).
    var since: Double
    /// Set when the user's own state was lost with an unreadable marker, so `previous` is the
    /// mechanism's "not quiet" rather than what the user had (absent: the user's own state).
    var previousUnknown: Bool?

    enum CodingKeys: String, CodingKey {
        case mechanism, previous, since
        case previousUnknown = "previous-unknown"
    }

    /// What is at the marker's place.
    enum Reading {
        /// No marker: the daemon has not quieted the desktop (or has put the user's state back).
        case none
        case marker(QuietMarker)
        /// Something is there that is not a marker (garbage, a symbolic link, the wrong shape):
        /// a daemon quieted the desktop, but the user's state before it is lost.
        case unreadable(reason: String)
    }

    static func fileName(in stateDirectory: String) -> String { stateDirectory + "/quiet-desktop.json" }

    /// Reads the marker at `path` without following a symbolic link.
    static func read(_ path: String) -> Reading {
        switch AtomicFile.readNoFollow(path) {
        case .missing: return .none
        case .unreadable(let reason): return .unreadable(reason: reason)
        case .read(let data):
            guard let marker = try? JSONDecoder().decode(QuietMarker.self, from: data) else {
                return .unreadable(reason: "it is not a Do Not Disturb marker")
            }
            return .marker(marker)
        }
    }

    func save(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: path)
    }

    static func remove(_ path: String) {
        unlink(path)
    }

    /// Moves an unreadable marker to `quiet-desktop.json.unreadable` (a symbolic link is moved
    /// itself, its target never touched), so it is read as such only once.
    static func setAside(_ path: String) {
        let aside = path + ".unreadable"
        if rename(path, aside) != 0 && unlink(path) != 0 && errno != ENOENT {
            Log.error("cannot set \(path) aside: \(String(cString: strerror(errno)))")
        }
    }
}
