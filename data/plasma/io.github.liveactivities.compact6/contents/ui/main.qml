// Live Activities for Plasma 6's panel: the compact text, and a popup with one row per live
// activity and its buttons. The Plasma 5.27 applet (io.github.liveactivities.compact) shows
// the same; the logic both share is in ../code/liveactivities.js.
//
// Everything goes through Plasma 6's QML D-Bus module, straight to the daemon: no process is
// ever started, and the tray item need not be shown. The panel text is the daemon's
// CompactText property. On Plasma 6.4 and newer LiveFollower.qml follows it (and the
// activities' signals) without asking; on 6.3, which has only method calls, a one-second
// timer reads it while the daemon is on the bus. The rows are read (List, then Get per
// activity) only while the popup is open: on 6.4+ when an activity starts, ends or changes
// status, and only the changed row on an update; on 6.3 when the text changes. A button
// calls InvokeAction.
import QtQuick
import QtQuick.Layouts
import org.kde.plasma.plasmoid
import org.kde.plasma.core as PlasmaCore
import org.kde.plasma.components as PlasmaComponents3
import org.kde.plasma.extras as PlasmaExtras
import org.kde.kirigami as Kirigami
import org.kde.plasma.workspace.dbus as DBus
import "../code/liveactivities.js" as LA

PlasmoidItem {
    id: root

    // LiveFollower on Plasma 6.4+, null where the module lacks its types (6.3).
    property var follower: null
    // The compact text as the 6.3 timer last read it.
    property string polledText: ""
    readonly property string compactText: !daemon.registered ? "" : follower ? follower.compactText : polledText
    readonly property bool live: compactText !== ""
    // The popup's rows (see LA.liveRows) and whether a read of them is under way / wanted again.
    property var rows: []
    property bool reading: false
    property bool readAgain: false
    // Replies not yet arrived (held so that they are not collected before they finish).
    property var pending: []

    Plasmoid.status: live ? PlasmaCore.Types.ActiveStatus : PlasmaCore.Types.PassiveStatus
    Plasmoid.icon: "chronometer"
    toolTipMainText: i18n("Live Activities")
    toolTipSubText: live ? compactText : i18n("Nothing live")
    toolTipTextFormat: Text.PlainText

    // Calls `member` of `iface` on the daemon's manager object; `done` gets the reply's value
    // (undefined after an error). `signature` is that of all arguments as one structure, "(ss)":
    // without it the module first introspects the object for it (one more call each time).
    function call(iface, member, args, signature, done) {
        const reply = DBus.SessionBus.asyncCall({
            "service": LA.busName, "path": LA.managerPath, "iface": iface, "member": member,
            "arguments": args, "signature": signature
        });
        pending = pending.concat([reply]);
        reply.finished.connect(function () {
            pending = pending.filter(function (r) { return r !== reply; });
            done(reply.isError ? undefined : reply.value);
        });
    }

    function readCompactText() {
        call("org.freedesktop.DBus.Properties", "Get", [LA.managerInterface, "CompactText"], "(ss)", function (value) {
            root.polledText = value === undefined ? "" : String(LA.plain(value));
        });
    }

    function readRows() {
        if (reading) {
            readAgain = true;
            return;
        }
        reading = true;
        call(LA.managerInterface, "List", [], "", function (list) {
            const ids = LA.liveIds(list);
            const found = [];
            let waiting = ids.length;
            const finish = function () {
                root.rows = LA.liveRows(found.filter(function (a) { return a; }));
                root.reading = false;
                if (root.readAgain) {
                    root.readAgain = false;
                    root.readRows();
                }
            };
            if (waiting === 0) {
                finish();
                return;
            }
            ids.forEach(function (id, index) {
                root.call(LA.managerInterface, "Get", [id], "(s)", function (properties) {
                    found[index] = properties;
                    waiting -= 1;
                    if (waiting === 0) {
                        finish();
                    }
                });
            });
        });
    }

    // On Plasma 6.4+: one activity changed (ActivityUpdated): read only its row again.
    function readOne(id) {
        if (!expanded) {
            return;
        }
        if (reading) {
            readAgain = true;
            return;
        }
        call(LA.managerInterface, "Get", [id], "(s)", function (properties) {
            const fresh = LA.liveRows(properties === undefined ? [] : [properties]);
            const index = root.rows.findIndex(function (row) { return row.id === id; });
            if (fresh.length === 0 || index < 0) {
                root.readRows();  // it is no longer live, or is new: read the whole list
                return;
            }
            const rows = root.rows.slice();
            rows[index] = fresh[0];
            root.rows = rows;
        });
    }

    function press(id, key) {
        call(LA.managerInterface, "InvokeAction", [id, key], "(ss)", function () { root.readRows(); });
    }

    function changed() {
        if (expanded) {
            readRows();
        } else {
            followShownRows();
        }
    }

    // Plasma 6.3 has no signals: a change of the text is the only sign that rows changed.
    onCompactTextChanged: if (follower === null) changed()
    onExpandedChanged: changed()
    // On 6.4+ the shown rows' own changes are followed, while the popup is open.
    onRowsChanged: followShownRows()

    function followShownRows() {
        if (follower === null) {
            return;
        }
        const ids = expanded ? rows.map(function (row) { return row.id; }) : [];
        if (ids.join("\n") !== follower.ids.join("\n")) {
            follower.ids = ids;
        }
    }

    DBus.DBusServiceWatcher {
        id: daemon
        watchedService: LA.busName
    }

    Timer {
        interval: 1000
        repeat: true
        triggeredOnStart: true
        running: root.follower === null && daemon.registered
        onTriggered: root.readCompactText()
    }

    Component.onCompleted: {
        // LiveFollower needs Properties and SignalWatcher (Plasma 6.4); on 6.3 the component
        // does not load and the timer above reads the text instead.
        const component = Qt.createComponent("LiveFollower.qml", Component.PreferSynchronous);
        if (component.status === Component.Ready) {
            follower = component.createObject(root);
            follower.activityChanged.connect(changed);
            follower.activityUpdated.connect(readOne);
        }
    }

    compactRepresentation: MouseArea {
        readonly property real textWidth: root.live ? label.implicitWidth + Kirigami.Units.smallSpacing * 2 : 0
        Layout.minimumWidth: textWidth
        Layout.preferredWidth: textWidth
        onClicked: root.expanded = !root.expanded

        PlasmaComponents3.Label {
            id: label
            anchors.centerIn: parent
            visible: root.live
            textFormat: Text.PlainText
            text: root.compactText
            // Tabular digits: a countdown keeps its width from second to second, so the
            // panel is not laid out again at every tick (issue 29).
            font.features: { "tnum": 1 }
        }
    }

    fullRepresentation: ColumnLayout {
        Layout.preferredWidth: Kirigami.Units.gridUnit * 22
        Layout.minimumHeight: Kirigami.Units.gridUnit * 6
        spacing: Kirigami.Units.largeSpacing

        PlasmaExtras.PlaceholderMessage {
            Layout.alignment: Qt.AlignCenter
            visible: root.rows.length === 0
            text: i18n("Nothing live")
        }

        // By count, not by the rows: a new rows array (a countdown changes every second) then
        // updates each row in place. With the array as model every row was destroyed and made
        // again at each change, and a click in that moment could land on another row's button
        // (a Pause once became the row below's "End fast").
        Repeater {
            model: root.rows.length
            delegate: ActivityRow {
                required property int index
                Layout.fillWidth: true
                activity: LA.rowAt(root.rows, index)
                onActionPressed: function (key) { root.press(activity.id, key); }
            }
        }

        Item { Layout.fillHeight: true }
    }
}
