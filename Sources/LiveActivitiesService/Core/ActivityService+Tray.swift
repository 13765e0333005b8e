import DBus
import Tray

/// What the tray item shows (label, tooltip, menu), from the same reads as the compact text
/// (`CardComposer.tray`).
extension ActivityService {
    /// The tray now (when the item starts).
    var trayState: TrayState {
        let view = readView()
        return CardComposer.tray(live: view.live, compactText: view.compactText)
    }
}

extension StatusNotifierItem {
    /// Starts the tray item for `service` (which then keeps it up to date); a failure is
    /// logged and the daemon goes on without a tray.
    static func start(for service: ActivityService, connection: DBusConnection) -> StatusNotifierItem? {
        let item = StatusNotifierItem(connection: connection, server: service.environment.server, state: service.trayState) { [weak service] id, key in
            guard let service else { return }
            do throws(DBusError) {
                try service.invokeAction(id: id, action: key)
            } catch {
                Log.warning("tray menu action \(key) on \(id): \(error.message)")
            }
        }
        do throws(DBusError) {
            try item.start()
            return item
        } catch {
            Log.error("no tray item: \(error.message)")
            return nil
        }
    }
}
