// Shared by both builds of the extension (43/44 and 45+): `make install-files` writes each
// build's island.js as its island.head.js (the imports), then this file, then island.js.
// So: no imports and no exports here; St, Clutter and PopupMenu come from the header.
//
// One live activity in the island's menu: one item holding its title, its body, a progress
// bar when it has progress (a segmented one when it has `Segments`: a fast's fasting phase
// then its eating window, a build's steps), and its buttons (the daemon's `Actions`), with a
// line above it unless it is the first. It only shows what the daemon published; a press goes
// to `onAction`.
const TRACK_WIDTH = 240;
const SEGMENT_GAP = 3;
const SEGMENT_STATES = ['done', 'current', 'upcoming'];
const STATUS_CLASSES = ['liveactivities-paused', 'liveactivities-stale'];

/** Sets `liveactivities-<status>` on `actor` for paused and stale, and removes the other. */
function styleStatus(actor, status) {
    for (const name of STATUS_CLASSES)
        actor.remove_style_class_name(name);
    if (status === 'paused' || status === 'stale')
        actor.add_style_class_name(`liveactivities-${status}`);
}

/** Lays `box` out top to bottom: `orientation` where St has it (48+; `vertical` is deprecated
 *  there), `vertical` on 43–47. */
function stackVertically(box) {
    if ('orientation' in box)
        box.orientation = Clutter.Orientation.VERTICAL;
    else
        box.vertical = true;
}

/** The daemon's `Segments` (label, share, state, fill) as a row of tracks, one per segment,
 *  as wide as its share with a gap between them, filled as far as the activity has come and
 *  styled by state (`liveactivities-segment-done`, `-current`, `-upcoming`). The tracks are
 *  made again only when the labels or shares change; otherwise only fills and styles move. */
var SegmentedBar = class SegmentedBar {
    constructor() {
        this.actor = new St.BoxLayout({ style_class: 'liveactivities-segments', x_align: Clutter.ActorAlign.START });
        this.actor.visible = false;
        this._shapeKey = null;
    }

    update(segments) {
        // The gap between tracks is the box's `spacing` (stylesheet.css), SEGMENT_GAP wide.
        const shapeKey = JSON.stringify(segments.map(([label, share]) => [label, share]));
        if (shapeKey !== this._shapeKey) {
            this._shapeKey = shapeKey;
            this.actor.destroy_all_children();
            const room = TRACK_WIDTH - SEGMENT_GAP * Math.max(0, segments.length - 1);
            segments.forEach(([label, share]) => {
                const track = new St.Widget({ style_class: 'liveactivities-segment', x_align: Clutter.ActorAlign.START,
                    accessible_name: label });
                track.width = Math.max(2, Math.round(room * Math.min(Math.max(share, 0), 1)));
                track.add_child(new St.Widget({ style_class: 'liveactivities-segment-fill' }));
                this.actor.add_child(track);
            });
        }
        this.actor.get_children().forEach((track, index) => {
            const [, , state, fill] = segments[index];
            for (const name of SEGMENT_STATES)
                track.remove_style_class_name(`liveactivities-segment-${name}`);
            if (SEGMENT_STATES.includes(state))
                track.add_style_class_name(`liveactivities-segment-${state}`);
            track.get_first_child().width = Math.round(track.width * Math.min(Math.max(fill, 0), 1));
        });
        this.actor.visible = segments.length > 0;
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

    /** Shows the activity's published properties: Title, Body, Progress, Status, Actions. */
    update(properties) {
        this.status = properties.Status;
        this.relevance = properties.Relevance ?? 0;
        this.startedAt = properties.StartedAt ?? 0;
        this._title.text = properties.Title ?? '';
        styleStatus(this._title, this.status);
        this._body.text = properties.Body ?? '';
        this._body.visible = this._body.text !== '';
        const progress = properties.Progress ?? -1;
        // One segment (a focus session) is the plain bar; two or more are drawn apart.
        const segments = (properties.Segments ?? []).length > 1 ? properties.Segments : [];
        this._segments.update(segments);
        this._segmentText.text = segments.length > 0 ? properties.SegmentText ?? '' : '';
        this._segmentText.visible = this._segmentText.text !== '';
        this._track.visible = progress >= 0 && segments.length === 0;
        this._fill.width = Math.round(TRACK_WIDTH * Math.min(Math.max(progress, 0), 1));
        this._showActions(properties.Actions ?? []);
    }

    /** A line separates each row from the one above it (a style class: GNOME hides separator
     *  items at the start of a section by itself). */
    setFirst(first) {
        if (first)
            this._box.remove_style_class_name('liveactivities-following');
        else
            this._box.add_style_class_name('liveactivities-following');
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
