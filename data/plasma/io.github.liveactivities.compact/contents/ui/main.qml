// Live Activities for Plasma 5.27's panel: the compact text, and a popup with one row per
// live activity and its buttons.
//
// Event-driven: the compact text is the daemon's tray item's Title, which Plasma's
// `statusnotifieritem` engine follows through the item's own change signals (the same data
// the system tray uses). The rows are read with one CLI process and one bus call
// (`liveactivity list --json`) only when the popup opens and then on each change of the item
// while it stays open; a button runs `liveactivity action`. No timer: with the popup closed the
// applet starts no process at all.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.plasma.extras 2.0 as PlasmaExtras
import "../code/liveactivities.js" as LA

Item {
    id: root

    // The daemon's tray item as the engine last reported it (null: none on the bus).
    property var trayItem: null
    property string traySource: ""
    readonly property string compactText: LA.compactText(trayItem)
    readonly property bool live: compactText !== ""
    // The popup's rows (see LA.rows) and whether a read of them is under way / wanted again.
    property var rows: []
    property bool reading: false
    property bool readAgain: false
    // `make install-files` puts the installed CLI's path here.
    readonly property string installedCli: "@BINDIR@/liveactivity"

    Plasmoid.status: live ? PlasmaCore.Types.ActiveStatus : PlasmaCore.Types.PassiveStatus
    Plasmoid.toolTipMainText: i18n("Live Activities")
    Plasmoid.toolTipSubText: live ? compactText : i18n("Nothing live")
    Plasmoid.toolTipTextFormat: Text.PlainText
    Plasmoid.icon: "chronometer"

    function readRows() {
        if (reading) {
            readAgain = true;
            return;
        }
        reading = true;
        commands.connectSource(LA.rowsCommand(installedCli));
    }

    function press(id, key) {
        commands.connectSource(LA.actionCommand(installedCli, id, key));
    }

    onTrayItemChanged: if (Plasmoid.expanded) readRows()
    Plasmoid.onExpandedChanged: if (Plasmoid.expanded) readRows()

    PlasmaCore.DataSource {
        id: trayItems
        engine: "statusnotifieritem"
        connectedSources: sources
        onNewData: function (sourceName, data) {
            if (data.Id === LA.trayItemId) {
                root.traySource = sourceName;
                root.trayItem = data;
            }
        }
        onSourceRemoved: function (source) {
            if (source === root.traySource) {
                root.traySource = "";
                root.trayItem = null;
            }
        }
    }

    PlasmaCore.DataSource {
        id: commands
        engine: "executable"
        onNewData: function (sourceName, data) {
            disconnectSource(sourceName);
            if (sourceName !== LA.rowsCommand(root.installedCli)) {
                root.readRows();  // a button was pressed: show its effect
                return;
            }
            root.rows = LA.rows(data.stdout);
            root.reading = false;
            if (root.readAgain) {
                root.readAgain = false;
                root.readRows();
            }
        }
    }

    Plasmoid.compactRepresentation: MouseArea {
        readonly property real textWidth: root.live ? label.implicitWidth + PlasmaCore.Units.smallSpacing * 2 : 0
        Layout.minimumWidth: textWidth
        Layout.preferredWidth: textWidth
        onClicked: Plasmoid.expanded = !Plasmoid.expanded

        PlasmaComponents3.Label {
            id: label
            anchors.centerIn: parent
            visible: root.live
            textFormat: Text.PlainText
            text: root.compactText
        }
    }

    Plasmoid.fullRepresentation: ColumnLayout {
        Layout.preferredWidth: PlasmaCore.Units.gridUnit * 22
        Layout.minimumHeight: PlasmaCore.Units.gridUnit * 6
        spacing: PlasmaCore.Units.largeSpacing

        PlasmaExtras.PlaceholderMessage {
            Layout.alignment: Qt.AlignCenter
            visible: root.rows.length === 0
            text: i18n("Nothing live")
        }

        // By count, not by the rows: a new rows array then updates each row in place instead of
        // destroying and making every row again (a click in that moment could land on another
        // row's button).
        Repeater {
            model: root.rows.length
            delegate: ActivityRow {
                Layout.fillWidth: true
                activity: LA.rowAt(root.rows, index)
                onActionPressed: function (key) { root.press(activity.id, key); }
            }
        }

        Item { Layout.fillHeight: true }
    }
}
