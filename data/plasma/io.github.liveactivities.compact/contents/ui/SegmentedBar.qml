// The daemon's `Segments` (label, share, state, fill) as a real segmented bar: one track per
// segment, as wide as its share, a gap between tracks, filled as far as the activity has come,
// drawn by state (done: full in the accent colour, current: filled so far, upcoming: dimmed).
// Shared by both applets (the Plasma 6 one links to this file): QtQuick only, so it loads
// under Qt 5 and Qt 6; each ActivityRow passes its theme's colours.
import QtQuick 2.15

Item {
    id: bar

    // LA.segments of the activity: [{label, share, state, fill}].
    property var segments: []
    property color accent: "#3daee9"
    property color track: "#4d808080"
    readonly property int gap: 3

    implicitHeight: 6
    visible: segments.length > 0

    Row {
        spacing: bar.gap
        Repeater {
            model: bar.segments
            delegate: Rectangle {
                objectName: "liveactivities-segment-" + modelData.state
                width: Math.max(2, Math.round((bar.width - bar.gap * Math.max(0, bar.segments.length - 1)) * modelData.share))
                height: bar.height
                radius: height / 2
                color: bar.track
                opacity: modelData.state === "upcoming" ? 0.6 : 1

                Rectangle {
                    width: Math.round(parent.width * modelData.fill)
                    height: parent.height
                    radius: height / 2
                    color: bar.accent
                }
            }
        }
    }
}
