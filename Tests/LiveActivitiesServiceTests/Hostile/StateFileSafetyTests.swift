import ActivityModel
import DBus
import Foundation
import Glibc
@testable import Persistence
import Testing
import TestSupport
@testable import LiveActivitiesService

/// Issue 18, point 8: the state directory is private and its files are the daemon's own. On
/// `main`, an existing 755 directory stayed 755; symbolic links at `lock` and `state.journal`
/// were written through (their target truncated); and when `flock` failed with anything but
/// EWOULDBLOCK the daemon served without the lock and wrote as usual.
@Suite(.timeLimit(.minutes(5))) struct StateFileSafetyTests {
    final class World {
        let ground: StateDirectory
        let outside: URL
        var root: URL { ground.root }
        var directory: URL { ground.directory }
        var paths: DaemonPaths { ground.paths }

        init() throws {
            ground = try StateDirectory(prefix: "state-safety", nested: true, permissions: 0o755)
            outside = ground.root.appendingPathComponent("victim")
            try "precious\n".write(to: outside, atomically: false, encoding: .utf8)
        }

        func mode(_ path: String) -> mode_t {
            var info = stat()
            return lstat(path, &info) == 0 ? info.st_mode : 0
        }

        func isSymlink(_ name: String) -> Bool { mode(directory.appendingPathComponent(name).path) & S_IFMT == S_IFLNK }

        func linkToVictim(_ name: String) throws {
            try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent(name).path,
                                                       withDestinationPath: outside.path)
        }

        var victim: String { (try? String(contentsOf: outside, encoding: .utf8)) ?? "(gone)" }
    }

    @Test func anExistingOpenStateDirectoryIsMadePrivate() throws {
        let w = try World()
        #expect(w.mode(w.directory.path) & 0o777 == 0o755)
        let lock = try StateLock(directory: w.directory.path)
        #expect(w.mode(w.directory.path) & 0o777 == 0o700)
        withExtendedLifetime(lock) {}
    }

    @Test func aSymlinkAtTheLockIsNotWrittenThrough() throws {
        let w = try World()
        try w.linkToVictim("lock")
        let lock = try StateLock(directory: w.directory.path)
        #expect(w.victim == "precious\n", "the link's target is untouched")
        #expect(!w.isSymlink("lock"), "the lock is a file of the daemon's own")
        withExtendedLifetime(lock) {}
    }

    @Test func symlinksAtTheJournalAndTheStateFileAreNotFollowed() throws {
        let w = try World()
        try w.linkToVictim("state.journal")
        try w.linkToVictim("state.json")
        let store = StateStore(paths: w.paths)
        #expect(store.load(now: 1_000)?.registry.activities.isEmpty ?? true)
        #expect(store.status.contains("symbolic link"), "StorageStatus says why state.json was not read: \(store.status)")
        var registry = ActivityRegistry(catalog: ServiceTestKinds.catalog, idSeed: 1)
        _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("t")], now: 1_000)
        try store.saveAll(PersistedState(registry: registry.snapshot))
        let started = try #require(registry.activities.first)
        try store.record([.activity(started)], durable: true) { PersistedState(registry: registry.snapshot) }
        #expect(w.victim == "precious\n", "neither write went through a link")
        #expect(!w.isSymlink("state.journal") && !w.isSymlink("state.json"))
        #expect(StateStore(paths: w.paths).load(now: 1_001)?.registry.activities.count == 1)
    }

    /// flock failing with ENOLCK (NFS) cannot be provoked here; the daemon hands the reason to
    /// `refuseChanges`, which is what is tested: every change is refused, reads go on.
    @Test func withoutTheLockChangesAreRefusedAndReadsGoOn() throws {
        let w = try World()
        var registry = ActivityRegistry(catalog: ServiceTestKinds.catalog, idSeed: 1)
        _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("saved")],
                               options: StartOptions(id: "saved"), now: 1_700_000_000)
        try StateStore(paths: w.paths).saveAll(PersistedState(registry: registry.snapshot))
        let before = try Data(contentsOf: URL(fileURLWithPath: w.paths.stateFile))

        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = try DBusConnection(address: bus.address)
        connection.attach(to: loop)
        let service = ActivityService(loop: loop, server: DBusObjectServer(connection: connection), paths: w.paths,
                                      presenter: nil, clock: { 1_700_000_010 })
        service.refuseChanges(because: "No locks available")
        try service.exportObjects()
        #expect(service.list().map(\.id) == ["saved"], "what was saved is served")
        #expect(throws: DBusError.self) {
            _ = try service.start(kind: "generic", attributes: [:], state: ["title": .string("new")], options: [:])
        }
        do {
            try service.update(id: "saved", state: ["title": .string("changed")], options: [:])
            Issue.record("an update was accepted without the lock")
        } catch {
            #expect(error.name == BusNames.errorPrefix + "StorageFailed", "\(error)")
        }
        #expect(service.list().map(\.id) == ["saved"], "nothing changed")
        #expect(service.storageStatus.contains("lock is not held"), "\(service.storageStatus)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: w.paths.stateFile)) == before, "state.json was not written")
        let title: DBusValue? = try service.properties(id: "saved").vardict?["title"]
        #expect(title == .string("saved"))
        bus.stop()
    }
}
