// One live activity in the popup: title, body, progress bar where it has progress (a segmented
// bar and its text where it has segments), buttons.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.core 2.0 as PlasmaCore
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.plasma.extras 2.0 as PlasmaExtras

ColumnLayout {
    id: row

    // One entry of LA.rows.
    property var activity
    signal actionPressed(string key)

    // Paused and stale activities are dimmed (their buttons are not).
    readonly property real textOpacity: activity.paused || activity.stale ? 0.6 : 1

    spacing: PlasmaCore.Units.smallSpacing

    PlasmaExtras.Heading {
        Layout.fillWidth: true
        opacity: row.textOpacity
        level: 4
        wrapMode: Text.Wrap
        textFormat: Text.PlainText
        text: activity.paused ? i18n("%1 (paused)", activity.title)
              : activity.stale ? i18n("%1 (not updated)", activity.title) : activity.title
    }

    PlasmaComponents3.Label {
        Layout.fillWidth: true
        opacity: row.textOpacity
        visible: text !== ""
        wrapMode: Text.Wrap
        textFormat: Text.PlainText
        text: activity.body
    }

    PlasmaComponents3.ProgressBar {
        Layout.fillWidth: true
        opacity: row.textOpacity
        visible: activity.progress >= 0 && activity.segments.length === 0
        from: 0
        to: 1
        value: Math.max(0, activity.progress)
    }

    // A fast's fasting phase then its eating window, a build's steps: drawn in segments, with
    // a mark under the bar at each point.
    SegmentedBar {
        Layout.fillWidth: true
        opacity: row.textOpacity
        segments: activity.segments
        points: activity.points
        accent: PlasmaCore.Theme.highlightColor
        track: Qt.rgba(PlasmaCore.Theme.textColor.r, PlasmaCore.Theme.textColor.g, PlasmaCore.Theme.textColor.b, 0.2)
        mark: Qt.rgba(PlasmaCore.Theme.textColor.r, PlasmaCore.Theme.textColor.g, PlasmaCore.Theme.textColor.b, 0.8)
    }

    PlasmaComponents3.Label {
        Layout.fillWidth: true
        opacity: row.textOpacity
        visible: activity.segments.length > 0 && text !== ""
        wrapMode: Text.Wrap
        textFormat: Text.PlainText
        text: activity.segmentText
    }

    RowLayout {
        Repeater {
            model: activity.actions.length  // by count: the buttons stay while the row's text ticks
            delegate: PlasmaComponents3.Button {
                readonly property var choice: row.activity.actions[index] || ({ key: "", label: "" })
                text: choice.label
                onClicked: row.actionPressed(choice.key)
            }
        }
    }
}
