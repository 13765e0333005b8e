// The daemon's `Segments` (label, share, state, fill) as a real segmented bar: one track per
// segment, as wide as its share, a gap between tracks, filled as far as the activity has come,
// drawn by state (done: full in the accent colour, current: filled so far, upcoming: dimmed);
// under it a small mark at each of the daemon's `Points` (a phase's start, a client's
// milestone), in the gap when the point is a boundary.
// Shared by both applets (the Plasma 6 one links to this file): QtQuick only, so it loads
// under Qt 5 and Qt 6; each ActivityRow passes its theme's colours.
import QtQuick 2.15

Item {
    id: bar

    // LA.segments of the activity: [{label, share, state, fill}].
    property var segments: []
    // LA.points of the activity: [{position, label}].
    property var points: []
    property color accent: "#3daee9"
    property color track: "#4d808080"
    property color mark: "#e0e0e0"
    readonly property int gap: 3
    readonly property int trackHeight: 6
    readonly property int markSize: 4
    readonly property int markSpacing: 2

    // Each track's width: its share of the room the gaps leave, at least 2 px.
    function trackWidth(share) {
        return Math.max(2, Math.round((bar.width - bar.gap * Math.max(0, bar.segments.length - 1)) * share));
    }

    // Where `position` (0…1 of the whole) falls on the drawn tracks: inside its track in
    // proportion, in the middle of the gap when it is a boundary.
    function pointX(position) {
        var start = 0;
        var x = 0;
        for (var i = 0; i < bar.segments.length; i++) {
            var share = bar.segments[i].share;
            var width = trackWidth(share);
            var end = start + share;
            var last = i === bar.segments.length - 1;
            if (!last && Math.abs(position - end) < 1e-6) {
                return x + width + bar.gap / 2;
            }
            if (position < end || last) {
                return x + width * Math.min(Math.max(share > 0 ? (position - start) / share : 0, 0), 1);
            }
            x += width + bar.gap;
            start = end;
        }
        return 0;
    }

    implicitHeight: trackHeight + (points.length > 0 ? markSpacing + markSize : 0)
    visible: segments.length > 0

    Row {
        spacing: bar.gap
        Repeater {
            model: bar.segments
            delegate: Rectangle {
                objectName: "liveactivities-segment-" + modelData.state
                width: bar.trackWidth(modelData.share)
                height: bar.trackHeight
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

    Repeater {
        model: bar.points
        delegate: Rectangle {
            objectName: "liveactivities-point"
            x: Math.round(bar.pointX(modelData.position) - width / 2)
            y: bar.trackHeight + bar.markSpacing
            width: bar.markSize
            height: bar.markSize
            radius: width / 2
            color: bar.mark
        }
    }
}
