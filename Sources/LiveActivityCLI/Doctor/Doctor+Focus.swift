import ActivityFiles
import DBus
import Foundation

/// The doctor's checks for focus that quiets the desktop and idle-aware sessions: which Do Not
/// Disturb the daemon drives for the server that runs (the same table the daemon uses,
/// `DoNotDisturbChoice`), whether the daemon has it on now (its marker in the state
/// directory), and where idleness comes from, or that nothing pauses without an idle monitor.
struct FocusChecks {
    let probes: DoctorProbes
    let config: DaemonConfig
    let stateDirectory: String

    func run() -> [Doctor.Finding] { [doNotDisturb(), idle()] }

    func doNotDisturb() -> Doctor.Finding {
        let check = "do not disturb"
        guard config.quietDesktop else {
            return Doctor.Finding(level: .info, check: check, text: "off (quiet-desktop = off in liveactivityd.conf)")
        }
        var text: String
        let name = "org.freedesktop.Notifications"
        if let info = try? probes.call(name, "/org/freedesktop/Notifications", name, "GetServerInformation"), info.count >= 2 {
            let server = info[0].string ?? ""
            if let choice = DoNotDisturbChoice.forServer(named: server, vendor: info[1].string ?? "") {
                text = "\(choice.rawValue): focus sessions turn on \(choice.summary)"
            } else {
                return Doctor.Finding(level: .info, check: check,
                                      text: "the notification server \(server) has no Do Not Disturb the daemon can drive; focus sessions do not quiet it")
            }
        } else {
            text = "unknown while no notification server runs"
        }
        if let data = FileManager.default.contents(atPath: stateDirectory + "/quiet-desktop.json"),
           let marker = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            let previous = marker["previous"] as? String ?? "?"
            text += "; on now (\(marker["mechanism"] as? String ?? "?"), the user's state \"\(previous)\" is restored when the session ends)"
        }
        return Doctor.Finding(level: .ok, check: check, text: text)
    }

    /// The idle source the running daemon uses (its `IdleSource` property); without a daemon
    /// that answers, what the bus offers (a Wayland compositor cannot be asked from here).
    func idle() -> Doctor.Finding {
        let check = "idle"
        guard config.idlePauseAfter > 0 else {
            return Doctor.Finding(level: .info, check: check, text: "off (idle-pause-after = 0)")
        }
        let after = "focus sessions pause after \(Int(config.idlePauseAfter)) s idle"
        let none = "no idle monitor on the bus (\(IdleSourceChoice.mutter.rawValue) or \(IdleSourceChoice.screenSaver.rawValue))"
            + " and no Wayland compositor offering ext-idle-notify-v1: focus sessions are not paused when you are away"
        if let source = (try? probes.managerProperty("IdleSource"))??.string {
            guard !source.isEmpty else { return Doctor.Finding(level: .info, check: check, text: none) }
            return Doctor.Finding(level: .ok, check: check, text: "\(source)\(polling(source)); \(after)")
        }
        if probes.hasOwner(IdleSourceChoice.mutter.rawValue) {
            return Doctor.Finding(level: .ok, check: check, text: "Mutter IdleMonitor\(polling("Mutter")); \(after) (the daemon is not running: read from the bus)")
        }
        if probes.hasOwner(IdleSourceChoice.screenSaver.rawValue) {
            return Doctor.Finding(level: .ok, check: check,
                                  text: "\(IdleSourceChoice.screenSaver.rawValue)\(polling(IdleSourceChoice.screenSaver.rawValue)); \(after) "
                                      + "(the daemon is not running: read from the bus; under Wayland the daemon asks the compositor first)")
        }
        return Doctor.Finding(level: .info, check: check, text: none + " (the daemon is not running: read from the bus)")
    }

    /// How a source is asked: events, or polling (the ScreenSaver has no idle event).
    private func polling(_ source: String) -> String {
        guard source.hasPrefix(IdleSourceChoice.screenSaver.rawValue) else { return " (events, no polling)" }
        return ", GetSessionIdleTime polled only while a focus session runs (once per \(Int(config.idlePauseAfter)) s, "
            + "every 5 s while a paused one waits for you)"
    }
}
