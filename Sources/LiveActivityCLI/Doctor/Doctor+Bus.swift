import DBus

/// The doctor's checks on the session bus: the daemon (and since when), the notification
/// server with its capabilities and the profile the daemon uses, the tray watcher, push.
struct BusChecks {
    typealias Finding = Doctor.Finding
    let probes: DoctorProbes

    func run() -> [Finding] {
        let daemonRunning = probes.hasOwner(BusClient.busName)
        return [daemon(running: daemonRunning), notificationServer(daemonRunning: daemonRunning), tray(),
                push(daemonRunning: daemonRunning)]
    }

    func daemon(running: Bool) -> Finding {
        guard running else {
            if probes.isActivatable(BusClient.busName) {
                return Finding(level: .ok, check: "daemon", text: "not running; D-Bus starts it on first use (activatable)")
            }
            return Finding(level: .broken, check: "daemon", text: "not on the bus and not activatable",
                           fix: "install the package (or make install), or run liveactivityd")
        }
        let version = (try? probes.managerProperty("Version"))??.string ?? "?"
        guard let pid = probes.ownerPID(BusClient.busName) else {
            return Finding(level: .ok, check: "daemon", text: "running, version \(version)")
        }
        let since = DoctorProbes.processStart(pid: pid).map { " since \(DoctorProbes.localText($0))" } ?? ""
        return Finding(level: .ok, check: "daemon", text: "running, version \(version), pid \(pid)\(since)")
    }

    func notificationServer(daemonRunning: Bool) -> Finding {
        let name = "org.freedesktop.Notifications", path = "/org/freedesktop/Notifications"
        guard probes.hasOwner(name) else {
            if probes.isActivatable(name) {
                return Finding(level: .ok, check: "notifications", text: "no server running; one is activatable")
            }
            return Finding(level: .broken, check: "notifications", text: "no notification server: cards cannot show",
                           fix: "run your desktop's, or install one (dunst, mako, xfce4-notifyd)")
        }
        var text = "server"
        if let info = try? probes.call(name, path, name, "GetServerInformation"), info.count >= 3 {
            text += " \(info[0].string ?? "?") \(info[2].string ?? "") (\(info[1].string ?? ""))"
        }
        if case .array(_, let capabilities)? = (try? probes.call(name, path, name, "GetCapabilities"))?.first {
            text += ", capabilities: \(capabilities.compactMap(\.string).joined(separator: " "))"
        }
        if daemonRunning, let profile = (try? probes.managerProperty("NotificationServer"))??.string {
            text += "; the daemon uses the profile \(profile.isEmpty ? "(none yet)" : profile)"
        }
        return Finding(level: .ok, check: "notifications", text: text)
    }

    func tray() -> Finding {
        if probes.hasOwner("org.kde.StatusNotifierWatcher") {
            return Finding(level: .ok, check: "tray", text: "a StatusNotifierWatcher is on the bus")
        }
        return Finding(level: .warning, check: "tray", text: "no StatusNotifierWatcher: no tray item",
                       fix: "on GNOME install gnome-shell-extension-appindicator; status bars can use liveactivity watch")
    }

    func push(daemonRunning: Bool) -> Finding {
        guard daemonRunning else { return Finding(level: .info, check: "push", text: "unknown while the daemon is not running") }
        do throws(DBusError) {
            guard let status = try probes.managerProperty("PushStatus") else {
                return Finding(level: .info, check: "push", text: "not built")
            }
            let text = status.string ?? "\(status)"
            if text.hasPrefix("error: push-broker") {
                return Finding(level: .broken, check: "push", text: text, fix: "correct push-broker in liveactivityd.conf (see docs/push.md) and restart the daemon")
            }
            if text.hasPrefix("error: ") {
                return Finding(level: .warning, check: "push", text: text, fix: "check that the broker is reachable and accepts this desktop's login (see docs/push.md)")
            }
            return Finding(level: .ok, check: "push", text: text)
        } catch {
            return Finding(level: .info, check: "push", text: "not built")
        }
    }
}
