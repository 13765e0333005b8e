// What Plasma 6.4 and newer let the applet follow without asking: the daemon's CompactText
// property, the activities' start, end and status signals, and (while the popup shows them)
// each shown activity's own PropertiesChanged. main.qml creates it only where the QML D-Bus
// module has Properties and SignalWatcher; on 6.3 this file does not load.
import QtQuick
import org.kde.plasma.workspace.dbus as DBus
import "../code/liveactivities.js" as LA

Item {
    id: follower

    // An activity started, changed status or ended (the popup's list of rows may differ).
    signal activityChanged()
    // Activity `id` was updated (its row may differ).
    signal activityUpdated(string id)

    // The activities whose changes to follow (the popup's rows while it is open, else none).
    property var ids: []

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
        function dbusStatusChanged(id, status) { follower.activityChanged(); }
        function dbusActivityEnded(id, reason) { follower.activityChanged(); }
    }

    // Each followed activity's PropertiesChanged (a timer's tick re-renders its body): one row
    // to read again. A signal watcher asks nothing of the object, so an activity that ends
    // and vanishes leaves no error behind.
    Instantiator {
        model: follower.ids
        delegate: DBus.SignalWatcher {
            required property var modelData
            service: daemon.registered ? LA.busName : ""
            path: LA.activityPath(modelData)
            iface: "org.freedesktop.DBus.Properties"

            function dbusPropertiesChanged(name, changed, invalidated) { follower.activityUpdated(modelData); }
        }
    }
}
