import ActivityModel
import DBus
import Glibc

/// Kind files that appear or change while the daemon runs: an app installs its own kind
/// (LiveActivityKit's `ActivityKindFile`) and starts an activity of it at once, with no
/// daemon restart. The kind directories are read again (1) when Start or Toggle names a kind
/// the daemon does not know and a directory changed since the last read (by mtime, so a flood
/// of bad Starts reads nothing), and (2) when inotify reports a change in a directory that
/// existed at start-up (a burst of writes leads to one read, 0.2 s after the first).
final class KindDirectoryWatch {
    let directories: [String]
    private var stamps: [String: Int64]
    private var inotify: Int32 = -1
    private var reader: ReaderToken?
    private var reloadPending = false

    init(directories: [String]) {
        self.directories = directories
        stamps = Self.stamps(of: directories)
    }

    deinit { if inotify >= 0 { close(inotify) } }

    /// Whether a directory was created, removed or changed since the last `markRead`.
    var changedSinceRead: Bool { Self.stamps(of: directories) != stamps }

    func markRead() { stamps = Self.stamps(of: directories) }

    /// Starts inotify on the existing directories; `changed` runs on the loop thread.
    func start(loop: EventLoop, changed: @escaping () -> Void) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            Log.warning("cannot watch the kind directories (inotify_init1: errno \(errno)); a kind file added now is "
                        + "read at the first Start of its kind")
            return
        }
        inotify = descriptor
        let mask = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        for directory in directories { _ = inotify_add_watch(descriptor, directory, mask) }
        reader = loop.addReader(fd: descriptor) { [weak self] in
            guard let self else { return }
            self.drain()
            guard !self.reloadPending else { return }
            self.reloadPending = true
            loop.addTimer(at: LocalTime.now() + 0.2) { [weak self] in
                self?.reloadPending = false
                changed()
            }
        }
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(inotify, &buffer, buffer.count) > 0 {}
    }

    /// Each directory's mtime in nanoseconds (-1 when it does not exist).
    private static func stamps(of directories: [String]) -> [String: Int64] {
        var result: [String: Int64] = [:]
        for directory in directories {
            var info = stat()
            result[directory] = stat(directory, &info) == 0
                ? Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec) : -1
        }
        return result
    }
}

extension ActivityService {
    /// Starts watching the kind directories (after the objects are exported).
    public func watchKindDirectories() {
        environment.kindWatch.start(loop: environment.loop) { [weak self] in self?.reloadKinds() }
    }

    /// Reads the kind directories again if `kind` is unknown and they changed since the last read.
    func reloadKindsIfUnknown(_ kind: String) {
        guard catalog.kind(named: kind) == nil, environment.kindWatch.changedSinceRead else { return }
        reloadKinds()
    }

    /// Loads every kind again, re-renders the activities (their kind may have changed) and
    /// announces `Kinds` when the list changed.
    func reloadKinds() {
        environment.kindWatch.markRead()
        let fresh = KindCatalog.load(directories: environment.kindWatch.directories)
        let known = Set(catalog.problems.map(\.description))
        for problem in fresh.problems where !known.contains(problem.description) {
            Log.error("kind file \(problem.file): \(problem.message)")
        }
        let namesChanged = fresh.names != catalog.names
        registry.catalog = fresh
        Log.info("kinds read again: \(fresh.names.joined(separator: ", "))")
        refreshAll()
        if namesChanged {
            environment.server.emitPropertiesChanged(path: BusNames.managerPath, interface: BusNames.managerInterface, names: ["Kinds"])
        }
    }
}
