import ActivityModel
import DBus
import Glibc
import Persistence
import ThreadSupport

/// The history side of a lifecycle change: the entries of ended activities are appended (and
/// fsynced) with the change they belong to (`ActivityService.transact`), and the file is
/// rotated on a thread of its own when it is due (`HistoryRotation`), so a big history never
/// holds up the bus.
extension Durability {
    /// Appends the entries of the activities `events` ended (before the reply, like the state);
    /// nil when none ended. A failure refuses the call (`transact` puts the registry back).
    func appendHistory(_ events: [ActivityEvent], now: Double) throws(DBusError) -> HistoryFile.Appended? {
        var entries: [HistoryEntry] = []
        for case .ended(_, _, let history) in events { entries.append(historyEntry(history)) }
        guard !entries.isEmpty else { return nil }
        do {
            return try store.appendHistory(entries, now: now)
        } catch {
            Log.error("\(error.description); the End is refused")
            throw .storageFailed(error)
        }
    }

    /// Appends the entries of activities that time ended (a tick, a restart): nobody waits for
    /// a reply, so a failure is logged (the End already happened).
    func recordHistory(_ events: [ActivityEvent], now: Double) {
        var entries: [HistoryEntry] = []
        for case .ended(_, _, let history) in events { entries.append(historyEntry(history)) }
        guard !entries.isEmpty else { return }
        do {
            _ = try store.appendHistory(entries, now: now)
        } catch {
            Log.error("\(error.description); \(entries.count) ended activities are missing from the history")
            return
        }
        rotateHistoryIfDue(now: now)
    }

    /// Starts a `HistoryRotation` on a thread of its own when the file is due; its last step
    /// (adding the lines appended meanwhile, the rename) comes back to the loop.
    func rotateHistoryIfDue(now: Double) {
        guard store.historyIsDue(now: now) else { return }
        let path = store.paths.historyFile
        let rotation = HistoryRotation(path: path, summaryPath: HistoryFile(path: path).summaryPath,
                                       now: now, timeZoneOffset: clock.utcOffset(at: now))
        store.historyRotationRunning = true
        let remote = loop.remote
        let target = LoopBound(self)
        let started = DetachedThread.start {
            // Below the event loop's priority: on a busy machine the bus comes first (on Linux,
            // PRIO_PROCESS with 0 is the calling thread).
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            let outcome: Result<HistoryRotation.Prepared?, HistoryRotation.Failure>
            do throws(HistoryRotation.Failure) { outcome = .success(try rotation.prepare()) } catch { outcome = .failure(error) }
            remote.post { target.value.finishHistoryRotation(rotation, outcome) }
        }
        if !started {
            store.historyRotationRunning = false
            Log.error("cannot start a thread to rotate \(path); it is tried again at the next End")
        }
    }

    /// On the loop: puts the rotated history in place.
    private func finishHistoryRotation(_ rotation: HistoryRotation, _ outcome: Result<HistoryRotation.Prepared?, HistoryRotation.Failure>) {
        store.historyRotationRunning = false
        do throws(HistoryRotation.Failure) {
            guard let prepared = try outcome.get() else { return }
            let started = clock.monotonicNow
            try rotation.finish(prepared)
            let milliseconds = Int(((clock.monotonicNow - started) * 1000).rounded())
            Log.info("\(rotation.path): \(prepared.folded) entries older than \(Int(HistoryFile.keepDays)) days or beyond its size "
                     + "folded into \(rotation.summaryPath) (the last step took \(milliseconds) ms on the event loop)")
            if let aside = prepared.asidePath {
                Log.warning("\(rotation.path): \(prepared.setAside) lines that are not usable entries were kept verbatim in \(aside)")
            }
        } catch {
            Log.error("cannot rotate \(rotation.path): \(error)")
        }
    }
}
