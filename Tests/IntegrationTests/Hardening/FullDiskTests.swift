import DBus
import Foundation
import Testing
import TestSupport

/// No acknowledgement without persistence (issue 14, fault 2): with the state directory on a
/// tmpfs filled to the brim, a call whose record cannot be written is refused with
/// `StorageFailed` (the errno text in the message) and changes nothing; reads go on; after a
/// crash, exactly the acknowledged calls are there.
@Suite("A full disk", .serialized, .timeLimit(.minutes(5)))
struct FullDiskTests {
    /// A small tmpfs mounted for one test (root only), unmounted at the end.
    final class SmallFilesystem {
        let mountPoint: TemporaryDirectory
        private(set) var mounted = false

        init(kilobytes: Int) throws {
            mountPoint = try TemporaryDirectory(prefix: "liveactivities-tmpfs")
            let result = try runCommand("mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", mountPoint.path])
            guard result.status == 0 else { throw Failure.cannotMount(result.stderr) }
            mounted = true
        }

        /// Writes a filler file until the filesystem refuses (ENOSPC); returns its path.
        @discardableResult
        func fill() -> URL {
            let filler = mountPoint.url.appendingPathComponent("filler")
            let fd = open(filler.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            defer { close(fd) }
            var chunk = [UInt8](repeating: 0x2e, count: 4096)
            while chunk.withUnsafeMutableBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
            var byte: UInt8 = 0x2e
            while write(fd, &byte, 1) > 0 {}
            return filler
        }

        /// Remounts the filesystem read-only (EROFS for every write from now on); nothing may
        /// have a file open for writing on it.
        func makeReadOnly() throws {
            let result = try runCommand("mount", ["-o", "remount,ro", mountPoint.path])
            guard result.status == 0 else { throw Failure.cannotMount(result.stderr) }
        }

        deinit {
            if mounted { _ = try? runCommand("umount", ["-l", mountPoint.path]) }
        }

        enum Failure: Error { case cannotMount(String) }
    }

    static let storageFailed = "io.github.liveactivities.LiveActivities1.Error.StorageFailed"

    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func callsThatCannotBeSavedAreRefusedAndChangeNothing() throws {
        let disk = try SmallFilesystem(kilobytes: 256)
        let bus = try PrivateBus()
        let daemon = try DaemonProcess(bus: bus, environment: ["XDG_STATE_HOME": disk.mountPoint.path,
                                                               "LIVEACTIVITIES_NO_CARDS": "1"])
        let c = try TestClient(bus: bus)
        _ = try c.start("generic", state: ["title": .string("before the disk filled")], options: ["id": .string("kept")])
        let filler = disk.fill()

        // Starts: acknowledged ones while the journal's last page has room, then refusals.
        var acknowledged: [String] = []
        var refusal: DBusError?
        for n in 0..<40 where refusal == nil {
            let id = "s\(n)"
            refusal = c.error { _ = try c.start("generic", state: ["title": .string(String(repeating: "x", count: 300))],
                                                options: ["id": .string(id)]) }
            if refusal == nil { acknowledged.append(id) }
        }
        #expect(refusal?.name == Self.storageFailed)
        #expect(refusal?.message.contains("No space left on device") == true, "errno text: \(refusal?.message ?? "")")
        let listed = try c.list().map { $0[0] }
        #expect(Set(listed) == Set(["kept"] + acknowledged), "the refused Start left nothing behind")

        let endRefusal = c.error { try c.end("kept") }
        #expect(endRefusal?.name == Self.storageFailed)
        #expect(try c.get("kept")["status"]?.string == "active", "a refused End changed nothing")
        let updateRefusal = c.error { try c.update("kept", ["body": .string(String(repeating: "y", count: 900))]) }
        #expect(updateRefusal?.name == Self.storageFailed)
        let setRefusal = c.error {
            try c.call("Set", [.string(TestClient.interface), .string("Enabled"), .variant(.boolean(false))],
                       interface: "org.freedesktop.DBus.Properties")
        }
        #expect(setRefusal?.name == Self.storageFailed)
        #expect(try c.property("Enabled") == .boolean(true))
        #expect(try c.property("StorageStatus").string?.contains("No space left on device") == true)
        #expect(try c.get("kept")["title"]?.string == "before the disk filled", "Get works on a full disk")

        // A crash now, and a restart once there is room: exactly what was acknowledged.
        daemon.kill()
        try FileManager.default.removeItem(at: filler)
        try daemon.start()
        #expect(Set(try c.list().map { $0[0] }) == Set(["kept"] + acknowledged))
        #expect(try c.get("kept")["status"]?.string == "active", "the refused End did not come back")
        #expect(try c.property("Enabled") == .boolean(true))
        // And with room again, changes are accepted.
        try c.end("kept")
        #expect(try c.get("kept")["status"]?.string == "ended")
        daemon.kill()
    }

    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aReadOnlyStateDirectoryRefusesChangesAndServesWhatItHas() throws {
        let disk = try SmallFilesystem(kilobytes: 1024)
        let bus = try PrivateBus()
        let daemon = try DaemonProcess(bus: bus, environment: ["XDG_STATE_HOME": disk.mountPoint.path,
                                                               "LIVEACTIVITIES_NO_CARDS": "1"])
        let c = try TestClient(bus: bus)
        _ = try c.start("generic", state: ["title": .string("written")], options: ["id": .string("kept")])
        // Read-only from the next start on (a filesystem remounted read-only after an error).
        daemon.kill()
        try disk.makeReadOnly()
        try daemon.start()
        #expect(try c.get("kept")["title"]?.string == "written", "what was written is read back")
        let endRefusal = c.error { try c.end("kept") }
        #expect(endRefusal?.name == Self.storageFailed)
        #expect(endRefusal?.message.contains("Read-only file system") == true, "\(endRefusal?.message ?? "")")
        let startRefusal = c.error { _ = try c.start("generic", state: ["title": .string("no")], options: ["id": .string("no")]) }
        #expect(startRefusal?.name == Self.storageFailed)
        #expect(try c.list().map { $0[0] } == ["kept"])
        #expect(try c.get("kept")["status"]?.string == "active")
        #expect(try c.property("StorageStatus").string?.contains("Read-only file system") == true)
        daemon.kill()
    }
}
