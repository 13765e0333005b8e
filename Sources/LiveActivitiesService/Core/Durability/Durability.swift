import ActivityModel
import DBus
import Persistence

/// Where a change is persisted. An accepted call is written before the reply (nothing
/// acknowledged may be lost; a call whose record cannot be written is refused with
/// `StorageFailed` and changes nothing: `ActivityService.transact`), then published
/// (`Publisher+Rounds`). Lifecycle changes are fsynced before the reply; updates, and the
/// notification ids the server hands out, are written before the reply (or at once) and
/// fsynced in a batch within a second, so a Start costs one fsync, plus those of `push.json`
/// (a file and its directory) when it has push options. It exists so that the store and the
/// fsync batch are one value the service owns; the history side is `+History`.
final class Durability {
    let store: StateStore
    let loop: EventLoop
    let clock: ServiceClock
    /// Called when a write fails (or works again), so `StorageStatus` is announced.
    let onStatusChange: () -> Void
    /// The history entry written for an ended activity (with the time away it discarded).
    let historyEntry: (HistoryEntry) -> HistoryEntry
    /// An fsync batch is due.
    private var syncPending = false

    init(store: StateStore, loop: EventLoop, clock: ServiceClock, onStatusChange: @escaping () -> Void,
         historyEntry: @escaping (HistoryEntry) -> HistoryEntry) {
        self.store = store
        self.loop = loop
        self.clock = clock
        self.onStatusChange = onStatusChange
        self.historyEntry = historyEntry
    }

    /// After a change no caller waits for (a tick, a wall-clock step, a notification id):
    /// written like a call's, but a failure is only logged; the store then writes everything
    /// at the next chance (`fullState`).
    func persistQuietly(_ records: [JournalRecord], durable: Bool, fullState: () -> PersistedState) {
        do {
            try store.record(records, durable: durable, fullState: fullState)
        } catch {
            onStatusChange()
        }
    }

    /// The fsync batch: at most `syncInterval` after the first write that waits for it.
    func syncSoon() {
        guard !syncPending else { return }
        syncPending = true
        clock.wake(afterSeconds: Self.syncInterval) { [weak self] in
            guard let self else { return }
            self.syncPending = false
            self.flush()
        }
    }

    /// fsyncs what is written but not yet on stable storage (also at exit).
    func flush() {
        do {
            try store.syncNow()
        } catch {
            Log.error("\(error.description); recent updates may not survive a power loss")
            onStatusChange()
        }
    }

    /// The longest an acknowledged Update waits for its fsync (power loss costs at most this).
    static let syncInterval = 1.0
}
