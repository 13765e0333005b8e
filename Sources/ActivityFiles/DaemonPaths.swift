#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the daemon keeps state, reads user config and finds kind files, resolved once from
/// the environment (XDG base directories) so nothing else reads the environment.
public struct DaemonPaths: Sendable {
    /// `$XDG_STATE_HOME/liveactivities` (default `~/.local/state/liveactivities`).
    public var stateDirectory: String
    /// `$XDG_CONFIG_HOME/liveactivities` (default `~/.config/liveactivities`).
    public var configDirectory: String
    /// Kind directories, lowest precedence first; the user's own comes last.
    public var kindDirectories: [String]

    public var stateFile: String { stateDirectory + "/state.json" }
    public var historyFile: String { stateDirectory + "/history.jsonl" }
    /// The daemon's settings (`DaemonConfig`).
    public var configFile: String { configDirectory + "/liveactivityd.conf" }
    /// Per-server corrections of how cards render (the Notifications target's profile table).
    public var serverProfilesFile: String { configDirectory + "/servers.conf" }

    public init(stateDirectory: String, configDirectory: String, kindDirectories: [String]) {
        self.stateDirectory = stateDirectory
        self.configDirectory = configDirectory
        self.kindDirectories = kindDirectories
    }

    /// Resolves the paths from `environment` and the location of the running executable.
    public static func resolve(environment: [String: String], executable: String) -> DaemonPaths {
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        let stateHome = nonEmpty(environment["XDG_STATE_HOME"]) ?? home + "/.local/state"
        let configHome = nonEmpty(environment["XDG_CONFIG_HOME"]) ?? home + "/.config"
        let dataHome = nonEmpty(environment["XDG_DATA_HOME"]) ?? home + "/.local/share"
        let dataDirs = (nonEmpty(environment["XDG_DATA_DIRS"]) ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)

        var kinds: [String] = []
        let binDir = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        // A build tree (`<checkout>/.build/<triple>/<config>/liveactivityd`) uses its checkout's kinds.
        var checkoutKinds: String?
        var ancestor = binDir
        for _ in 0..<4 {
            ancestor = ancestor.deletingLastPathComponent()
            if FileManager.default.fileExists(atPath: ancestor.appendingPathComponent("Package.swift").path) {
                checkoutKinds = ancestor.appendingPathComponent("data/kinds").path
                break
            }
        }
        let prefixKinds = binDir.appendingPathComponent("../share/liveactivities/kinds").standardized.path
        for dir in dataDirs.reversed() { kinds.append(dir + "/liveactivities/kinds") }
        kinds.append(dataHome + "/liveactivities/kinds")
        kinds.append(prefixKinds)
        if let checkoutKinds { kinds.append(checkoutKinds) }
        if let extra = nonEmpty(environment["LIVEACTIVITIES_KINDS_DIR"]) { kinds.append(extra) }
        kinds.append(configHome + "/liveactivities/kinds")
        var seen = Set<String>()
        kinds = kinds.filter { seen.insert($0).inserted }

        return DaemonPaths(stateDirectory: stateHome + "/liveactivities",
                           configDirectory: configHome + "/liveactivities",
                           kindDirectories: kinds)
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
