// Shared by both builds of the extension (43/44 and 45+): `make install-files` writes each
// build's island.js as its island.head.js (the imports), then this file, then island.js.
// So: no imports and no exports here; St, Clutter and PopupMenu come from the header.
//
// One live activity in the island's menu: one item holding its title, its body, a progress
// bar when it has progress, and its buttons (the daemon's `Actions`), with a line above it
// unless it is the first. It only shows what the daemon published; a press goes to `onAction`.
const TRACK_WIDTH = 240;
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
        this._buttonBox = new St.BoxLayout({ style_class: 'liveactivities-actions' });
        for (const child of [this._title, this._body, this._track, this._buttonBox])
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
        this._track.visible = progress >= 0;
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
