import ActivityModel
import FoundationEssentials
import Persistence
import ServiceSupport

/// The time away of each live session (idle-aware sessions, issue 21), kept in the state
/// directory (`away.json`, written atomically on every change) so a killed daemon still knows
/// that a session was paused because the user left, and how much time away was discarded.
/// An activity's entry goes when its history entry is written.
package struct AwayLedger {
    /// One session's time away.
    package struct Entry: Codable, Equatable {
        /// A pause the daemon made because the user was idle, waiting for the user's choice.
        package struct Pending: Codable, Equatable {
            /// When the user went idle (the pause came `idle-pause-after` later).
            package var idleSince: Double
            /// When the daemon paused the session.
            package var pausedAt: Double
            /// When the user came back (nil: still away).
            package var backAt: Double?

            package init(idleSince: Double, pausedAt: Double, backAt: Double?) {
                self.idleSince = idleSince
                self.pausedAt = pausedAt
                self.backAt = backAt
            }
        }

        package var pending: Pending?
        /// Seconds away the user chose not to count, so far.
        package var discardedSeconds = 0.0

        package init(pending: Pending? = nil, discardedSeconds: Double = 0) {
            self.pending = pending
            self.discardedSeconds = discardedSeconds
        }

        /// Every time a moment inside `InputLimits` and the seconds discarded no more than that
        /// span: an entry read back from `away.json` is used in arithmetic and `Int` conversions.
        var isPlausible: Bool {
            let moments = InputLimits.earliestTime...InputLimits.latestTime
            let times = [pending?.idleSince, pending?.pausedAt, pending?.backAt].compactMap { $0 }
            return times.allSatisfy(moments.contains)
                && (0...(InputLimits.latestTime - InputLimits.earliestTime)).contains(discardedSeconds)
        }
    }

    let path: String
    private(set) var entries: [String: Entry] = [:]

    package init(stateDirectory: String) {
        path = stateDirectory + "/away.json"
        if case .read(let data) = AtomicFile.readNoFollow(path) {
            if let saved = try? JSONDecoder().decode([String: Entry].self, from: data) {
                entries = saved.filter(\.value.isPlausible)
                if entries.count < saved.count {
                    Log.error("\(path): \(saved.count - entries.count) entry(ies) with times outside \(InputLimits.earliestTime)...\(InputLimits.latestTime) forgotten")
                }
            } else {
                Log.error("\(path) cannot be read; the time away of running sessions is forgotten")
            }
        }
    }

    package subscript(id: String) -> Entry? { entries[id] }

    /// Activities paused for idleness and waiting for the user's choice.
    package var pendingIDs: [String] { entries.filter { $0.value.pending != nil }.map(\.key).sorted() }

    package mutating func set(_ id: String, _ entry: Entry?) {
        entries[id] = entry
        save()
    }

    /// Forgets activities that are no longer known (their history is written or they are gone).
    package mutating func keepOnly(_ ids: Set<String>) {
        let before = entries.count
        entries = entries.filter { ids.contains($0.key) }
        if entries.count != before { save() }
    }

    private func save() {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try AtomicFile.write(try encoder.encode(entries), to: path)
        } catch {
            Log.error("cannot save the time away to \(path): \(error)")
        }
    }
}
