// One live activity in the popup: title, body, progress bar where it has progress (a segmented
// bar and its text where it has segments), buttons.
// Client text is shown as plain text, never as markup.
import QtQuick
import QtQuick.Layouts
import org.kde.plasma.components as PlasmaComponents3
import org.kde.plasma.extras as PlasmaExtras
import org.kde.kirigami as Kirigami

ColumnLayout {
    id: row

    // One entry of LA.liveRows.
    property var activity
    signal actionPressed(string key)

    // Paused and stale activities are dimmed (their buttons are not).
    readonly property real textOpacity: activity.paused || activity.stale ? 0.6 : 1

    spacing: Kirigami.Units.smallSpacing

    PlasmaExtras.Heading {
        Layout.fillWidth: true
        opacity: row.textOpacity
        level: 4
        wrapMode: Text.Wrap
        textFormat: Text.PlainText
        text: row.activity.paused ? i18n("%1 (paused)", row.activity.title)
              : row.activity.stale ? i18n("%1 (not updated)", row.activity.title) : row.activity.title
    }

    PlasmaComponents3.Label {
        Layout.fillWidth: true
        opacity: row.textOpacity
        visible: text !== ""
        wrapMode: Text.Wrap
        textFormat: Text.PlainText
        text: row.activity.body
    }

    PlasmaComponents3.ProgressBar {
        Layout.fillWidth: true
        opacity: row.textOpacity
        visible: row.activity.progress >= 0 && row.activity.segments.length === 0
        from: 0
        to: 1
        value: Math.max(0, row.activity.progress)
    }

    // A fast's fasting phase then its eating window, a build's steps: drawn in segments, with
    // a mark under the bar at each point.
    SegmentedBar {
        Layout.fillWidth: true
        opacity: row.textOpacity
        segments: row.activity.segments
        points: row.activity.points
        accent: Kirigami.Theme.highlightColor
        track: Qt.rgba(Kirigami.Theme.textColor.r, Kirigami.Theme.textColor.g, Kirigami.Theme.textColor.b, 0.2)
        mark: Qt.rgba(Kirigami.Theme.textColor.r, Kirigami.Theme.textColor.g, Kirigami.Theme.textColor.b, 0.8)
    }

    PlasmaComponents3.Label {
        Layout.fillWidth: true
        opacity: row.textOpacity
        visible: row.activity.segments.length > 0 && text !== ""
        wrapMode: Text.Wrap
        textFormat: Text.PlainText
        text: row.activity.segmentText
    }

    RowLayout {
        Repeater {
            model: row.activity.actions.length  // by count: the buttons stay while the row's text ticks
            delegate: PlasmaComponents3.Button {
                required property int index
                readonly property var choice: row.activity.actions[index] || ({ key: "", label: "" })
                text: choice.label
                onClicked: row.actionPressed(choice.key)
            }
        }
    }
}
