import LiveActivityKit

/// Today's focus time and the day streak, from the daemon's history through
/// `liveactivity stats --json` (completed sessions only, as the daemon records them, including
/// those the timer completed while focusflow was not running).
struct FocusStats {
    var todaySeconds: Double
    var streakDays: Int

    /// Nil when the CLI is not found or says nothing about focus sessions yet.
    static func load() -> FocusStats? {
        guard let cli = cliPath() else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cli)
        process.arguments = ["stats", "--json"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let all = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let figures = all[FocusSessionAttributes.activityKind] as? [String: Any] else { return nil }
        return FocusStats(todaySeconds: (figures["today-seconds"] as? NSNumber)?.doubleValue ?? 0,
                          streakDays: (figures["day-streak"] as? NSNumber)?.intValue ?? 0)
    }

    /// `liveactivity` beside this executable (a `swift build` tree), else on PATH.
    static func cliPath() -> String? {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let beside = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("liveactivity").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/liveactivity"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    var summary: String {
        let minutes = Int(todaySeconds / 60)
        let time = minutes >= 60 ? "\(minutes / 60)h \(minutes % 60)m" : "\(minutes)m"
        return "Today: \(time) focused · streak: \(streakDays) day\(streakDays == 1 ? "" : "s")"
    }
}
