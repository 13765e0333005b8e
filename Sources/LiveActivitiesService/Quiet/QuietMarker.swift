import ActivityFiles
import FoundationEssentials
import Glibc

/// "I turned Do Not Disturb on; before that it was X": written to the state directory
/// (`quiet-desktop.json`, fsynced) before the daemon turns it on, removed once the user's
/// state is back. A daemon that crashed or was killed in between finds it at start and puts
/// the user's state back unless a quieting session is still live, so nobody is left silenced.
struct QuietMarker: Codable, Equatable, Sendable {
    var mechanism: DoNotDisturbChoice
    /// What the mechanism's `currentState` returned before the daemon turned it on.
    var previous: String
    /// When the daemon turned it on (unix seconds).
    var since: Double

    static func fileName(in stateDirectory: String) -> String { stateDirectory + "/quiet-desktop.json" }

    /// The marker at `path`; nil when there is none or it cannot be read (then logged).
    static func load(_ path: String) -> QuietMarker? {
        switch AtomicFile.readNoFollow(path) {
        case .missing: return nil
        case .unreadable(let reason):
            Log.error("\(path): \(reason); cannot tell whether Do Not Disturb needs restoring")
            return nil
        case .read(let data):
            guard let marker = try? JSONDecoder().decode(QuietMarker.self, from: data) else {
                Log.error("\(path) is not a Do Not Disturb marker; set aside")
                rename(path, path + ".unreadable")
                return nil
            }
            return marker
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
}
