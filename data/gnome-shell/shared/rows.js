// Shared by both builds of the extension (43/44 and 45+): `make install-files` writes each
// build's island.js as its island.head.js (the imports), then this file, then island.js.
// So: no imports and no exports here; St, Clutter and PopupMenu come from the header.
//
// One live activity in the island's menu: one item holding its title, its body, a progress
// bar when it has progress (a segmented one when it has `Segments`: a fast's fasting phase
// then its eating window, a build's steps, with a mark under it at each of its `Points`), and
// its buttons (the daemon's `Actions`), with a line above it unless it is the first. It only
// shows what the daemon published; a press goes to `onAction`.
const TRACK_WIDTH = 240;
const SEGMENT_GAP = 3;
const POINT_SIZE = 4;
const SEGMENT_STATES = ['done', 'current', 'upcoming'];
const STATUS_CLASSES = ['liveactivities-paused', 'liveactivities-stale'];

/** Sets a label's text only when it changes (a tick touches one label, not the layout). */
function setText(label, text) {
    if (label.text !== text)
        label.text = text;
}

/** Gives `actor` style class `name` when `wanted`, and takes it away when not, touching the
 *  actor only when that changes something (each change restyles it). */
function setStyleClass(actor, name, wanted) {
    if (actor.has_style_class_name(name) === wanted)
        return;
    if (wanted)
        actor.add_style_class_name(name);
    else
        actor.remove_style_class_name(name);
}

/** Sets `liveactivities-<status>` on `actor` for paused and stale, and removes the other. */
function styleStatus(actor, status) {
    for (const name of STATUS_CLASSES)
        setStyleClass(actor, name, name === `liveactivities-${status}`);
}

/** Sets an actor's width or visibility only when it changes. */
function setWidth(actor, width) {
    if (actor.width !== width)
        actor.width = width;
}

function setVisible(actor, visible) {
    if (actor.visible !== visible)
        actor.visible = visible;
}

/** Lays `box` out top to bottom: `orientation` where St has it (48+; `vertical` is deprecated
 *  there), `vertical` on 43–47. */
function stackVertically(box) {
    if ('orientation' in box)
        box.orientation = Clutter.Orientation.VERTICAL;
    else
        box.vertical = true;
}

/** Where `position` (0…1 of the whole) falls on a bar of tracks `widths` px wide with `gap`
 *  px between them, whose shares are `shares`: inside its track in proportion, and in the
 *  middle of the gap when it is a boundary (a phase's start). */
function pointOffset(position, shares, widths, gap) {
    let start = 0;
    let x = 0;
    for (let index = 0; index < shares.length; index++) {
        const end = start + shares[index];
        const last = index === shares.length - 1;
        if (!last && Math.abs(position - end) < 1e-6)
            return x + widths[index] + gap / 2;
        if (position < end || last) {
            const within = shares[index] > 0 ? (position - start) / shares[index] : 0;
            return x + widths[index] * Math.min(Math.max(within, 0), 1);
        }
        x += widths[index] + gap;
        start = end;
    }
    return 0;
}

/** The daemon's `Segments` (label, share, state, fill) as a row of tracks, one per segment,
 *  as wide as its share with a gap between them, filled as far as the activity has come and
 *  styled by state (`liveactivities-segment-done`, `-current`, `-upcoming`); under it a small
 *  mark (`liveactivities-point`) at each of the daemon's `Points` (a phase's start, a client's
 *  milestone). Tracks and marks are made again only when the labels, shares or points change;
 *  otherwise only fills and styles move. */
var SegmentedBar = class SegmentedBar {
    constructor() {
        this.actor = new St.BoxLayout({ style_class: 'liveactivities-segmented-bar', x_align: Clutter.ActorAlign.START });
        stackVertically(this.actor);
        this._tracks = new St.BoxLayout({ style_class: 'liveactivities-segments', x_align: Clutter.ActorAlign.START });
        this._marks = new St.Widget({ style_class: 'liveactivities-points', x_align: Clutter.ActorAlign.START,
            layout_manager: new Clutter.FixedLayout() });
        this._marks.width = TRACK_WIDTH;
        this.actor.add_child(this._tracks);
        this.actor.add_child(this._marks);
        this.actor.visible = false;
        this._shapeKey = null;
        this._pointsKey = null;
    }

    update(segments, points) {
        // The gap between tracks is the box's `spacing` (stylesheet.css), SEGMENT_GAP wide.
        const shapeKey = JSON.stringify(segments.map(([label, share]) => [label, share]));
        const room = TRACK_WIDTH - SEGMENT_GAP * Math.max(0, segments.length - 1);
        const widths = segments.map(([, share]) => Math.max(2, Math.round(room * Math.min(Math.max(share, 0), 1))));
        if (shapeKey !== this._shapeKey) {
            this._shapeKey = shapeKey;
            this._tracks.destroy_all_children();
            segments.forEach(([label], index) => {
                const track = new St.Widget({ style_class: 'liveactivities-segment', x_align: Clutter.ActorAlign.START,
                    accessible_name: label });
                track.width = widths[index];
                track.add_child(new St.Widget({ style_class: 'liveactivities-segment-fill' }));
                this._tracks.add_child(track);
            });
        }
        this._tracks.get_children().forEach((track, index) => {
            const [, , state, fill] = segments[index];
            for (const name of SEGMENT_STATES)
                setStyleClass(track, `liveactivities-segment-${name}`, name === state);
            setWidth(track.get_first_child(), Math.round(track.width * Math.min(Math.max(fill, 0), 1)));
        });
        this._showPoints(segments.length > 0 ? points : [], segments.map(([, share]) => share), widths, shapeKey);
        setVisible(this.actor, segments.length > 0);
    }

    /** One mark per point, centred on its place on the bar (rebuilt only when points or shape change). */
    _showPoints(points, shares, widths, shapeKey) {
        const key = JSON.stringify([points, shapeKey]);
        if (key === this._pointsKey)
            return;
        this._pointsKey = key;
        this._marks.destroy_all_children();
        for (const [position, label] of points) {
            const mark = new St.Widget({ style_class: 'liveactivities-point', accessible_name: label });
            mark.set_size(POINT_SIZE, POINT_SIZE);
            const center = pointOffset(Math.min(Math.max(position, 0), 1), shares, widths, SEGMENT_GAP);
            mark.set_position(Math.round(center - POINT_SIZE / 2), 0);
            this._marks.add_child(mark);
        }
        this._marks.visible = points.length > 0;
    }
};

var ActivityRow = class ActivityRow {
    constructor(id, onAction) {
        this.id = id;
        this.status = 'active';
        this.relevance = 0;
        this.startedAt = 0;
        this._onAction = onAction;
        this._actionsKey = null;
        this.section = new PopupMenu.PopupMenuSection();
        const item = new PopupMenu.PopupBaseMenuItem({ reactive: false, can_focus: false });
        const box = this._box = new St.BoxLayout({ x_expand: true, style_class: 'liveactivities-row' });
        stackVertically(box);
        item.add_child(box);
        this.section.addMenuItem(item);

        this._title = new St.Label({ style_class: 'liveactivities-title' });
        this._body = new St.Label({ style_class: 'liveactivities-body' });
        this._track = new St.Widget({ style_class: 'liveactivities-progress-track', x_align: Clutter.ActorAlign.START });
        this._fill = new St.Widget({ style_class: 'liveactivities-progress-fill' });
        this._track.add_child(this._fill);
        this._segments = new SegmentedBar();
        this._segmentText = new St.Label({ style_class: 'liveactivities-segment-text' });
        this._buttonBox = new St.BoxLayout({ style_class: 'liveactivities-actions' });
        for (const child of [this._title, this._body, this._track, this._segments.actor, this._segmentText, this._buttonBox])
            box.add_child(child);
    }

    /** Shows the activity's published properties: Title, Body, Progress, Status, Actions
     *  (setting only what changed: the island calls it on every change while its menu is open). */
    update(properties) {
        this.status = properties.Status;
        this.relevance = properties.Relevance ?? 0;
        this.startedAt = properties.StartedAt ?? 0;
        setText(this._title, properties.Title ?? '');
        styleStatus(this._title, this.status);
        setText(this._body, properties.Body ?? '');
        setVisible(this._body, this._body.text !== '');
        const progress = properties.Progress ?? -1;
        // One segment (a focus session) is the plain bar; two or more are drawn apart.
        const segments = (properties.Segments ?? []).length > 1 ? properties.Segments : [];
        this._segments.update(segments, properties.Points ?? []);
        setText(this._segmentText, segments.length > 0 ? properties.SegmentText ?? '' : '');
        setVisible(this._segmentText, this._segmentText.text !== '');
        setVisible(this._track, progress >= 0 && segments.length === 0);
        setWidth(this._fill, Math.round(TRACK_WIDTH * Math.min(Math.max(progress, 0), 1)));
        this._showActions(properties.Actions ?? []);
    }

    /** A line separates each row from the one above it (a style class: GNOME hides separator
     *  items at the start of a section by itself). */
    setFirst(first) {
        setStyleClass(this._box, 'liveactivities-following', !first);
    }

    /** Rebuilds the buttons only when the daemon's list of (key, label) changed. */
    _showActions(actions) {
        const key = JSON.stringify(actions);
        if (key === this._actionsKey)
            return;
        this._actionsKey = key;
        this._buttonBox.destroy_all_children();
        for (const [action, label] of actions) {
            const button = new St.Button({ label, style_class: 'button liveactivities-action', can_focus: true });
            button.connect('clicked', () => this._onAction(this.id, action));
            this._buttonBox.add_child(button);
        }
        this._buttonBox.visible = actions.length > 0;
    }

    destroy() {
        this.section.destroy();
    }
};
