import ActivityFiles
import Foundation

/// Where `swift build` put our executables: beside the test bundle.
public enum BuiltProducts {
    /// The directory of the running test binary (e.g. `.build/debug`).
    public static var directory: URL {
        let exe = RunningExecutable.path
        var url = URL(fileURLWithPath: exe).deletingLastPathComponent()
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("liveactivityd").path) {
            url = url.deletingLastPathComponent()
        }
        return url
    }

    public static func path(of executable: String) -> String {
        directory.appendingPathComponent(executable).path
    }
}
