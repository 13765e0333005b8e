// What Plasma 6.4 and newer let the applet follow without asking: the daemon's CompactText
// property (PropertiesChanged) and its activities' signals. main.qml creates it only where
// the QML D-Bus module has Properties and SignalWatcher; on 6.3 this file does not load.
import QtQuick
import org.kde.plasma.workspace.dbus as DBus
import "../code/liveactivities.js" as LA

Item {
    id: follower

    // An activity started, changed, changed status or ended (the popup's rows may differ).
    signal activityChanged()

    readonly property string compactText: properties.properties.CompactText === undefined
                                          ? "" : String(LA.plain(properties.properties.CompactText))

    DBus.DBusServiceWatcher {
        id: daemon
        watchedService: LA.busName
    }

    DBus.Properties {
        id: properties
        // Empty while the daemon is away, so that nothing here starts it.
        service: daemon.registered ? LA.busName : ""
        path: LA.managerPath
        iface: LA.managerInterface
    }

    DBus.SignalWatcher {
        service: daemon.registered ? LA.busName : ""
        path: LA.managerPath
        iface: LA.managerInterface

        function dbusActivityStarted(id, kind) { follower.activityChanged(); }
        function dbusActivityUpdated(id) { follower.activityChanged(); }
        function dbusStatusChanged(id, status) { follower.activityChanged(); }
        function dbusActivityEnded(id, reason) { follower.activityChanged(); }
    }
}
