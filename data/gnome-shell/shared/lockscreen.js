// Shared by both builds (see rows.js): St, Clutter and Gio come from the build's header;
// SegmentedBar, setText, stackVertically, styleStatus and TRACK_WIDTH from rows.js, written before this.
//
// The lock screen (issue 26): what iOS shows of a Live Activity on its Lock Screen. While the
// screen is locked, the unlock dialog shows the most relevant live activities, up to
// LOCK_SCREEN_ROWS and then "+N more", each with its title, its body line, its live time and
// its bar, read-only: nothing here acts on an activity. It sits at the top of GNOME's own
// notification column (the dialog's `_notificationsBox`, the same in GNOME Shell 43 to 50), so
// it follows the dialog's layout and leaves with it. What each activity may show is the
// daemon's word (`LockScreen`: full, private or off); GNOME's `show-in-lock-screen = false`
// hides them all (the island checks that).
const LOCK_SCREEN_ROWS = 3;

/** One live activity on the lock screen: a line with its title (or, private, its kind's
 *  name) and its time at the right, its body under it, then its bar or its segments. */
var LockRow = class LockRow {
    constructor() {
        this.actor = new St.BoxLayout({ style_class: 'liveactivities-lock-row', x_expand: true });
        stackVertically(this.actor);
        const header = new St.BoxLayout({ x_expand: true });
        this._title = new St.Label({ style_class: 'liveactivities-lock-title', x_expand: true,
            y_align: Clutter.ActorAlign.CENTER });
        this._time = new St.Label({ style_class: 'liveactivities-lock-time', y_align: Clutter.ActorAlign.CENTER });
        header.add_child(this._title);
        header.add_child(this._time);
        this._body = new St.Label({ style_class: 'liveactivities-lock-body' });
        this._track = new St.Widget({ style_class: 'liveactivities-progress-track', x_align: Clutter.ActorAlign.START });
        this._fill = new St.Widget({ style_class: 'liveactivities-progress-fill' });
        this._track.add_child(this._fill);
        this._segments = new SegmentedBar();
        for (const child of [header, this._body, this._track, this._segments.actor])
            this.actor.add_child(child);
    }

    /** Shows `properties` (the activity's cached properties) as its `LockScreen` allows. */
    update(properties) {
        const full = properties.LockScreen !== 'private';
        setText(this._title, (full ? properties.Title : properties.KindName) ?? '');
        styleStatus(this._title, properties.Status);
        setText(this._time, properties.CompactTrailing ?? '');
        this._time.visible = this._time.text !== '';
        setText(this._body, full ? properties.Body ?? '' : '');
        this._body.visible = this._body.text !== '';
        const segments = (properties.Segments ?? []).length > 1 ? properties.Segments : [];
        this._segments.update(segments, properties.Points ?? []);
        const progress = properties.Progress ?? -1;
        this._track.visible = progress >= 0 && segments.length === 0;
        const width = Math.round(TRACK_WIDTH * Math.min(Math.max(progress, 0), 1));
        if (this._fill.width !== width)
            this._fill.width = width;
    }
};

/** The lock screen's column of live activities, inside the unlock dialog's notification box
 *  `parent`. Rows are kept and reused by place; the dialog destroys it with itself. */
var LockScreenView = class LockScreenView {
    constructor(parent) {
        this.actor = new St.BoxLayout({ style_class: 'liveactivities-lockscreen', x_expand: true });
        stackVertically(this.actor);
        this._rows = [];
        this._more = new St.Label({ style_class: 'liveactivities-lock-more', x_align: Clutter.ActorAlign.CENTER });
        this.actor.add_child(this._more);
        this.actor.visible = false;
        this.actor.connect('destroy', () => {
            this.actor = null;
        });
        parent.insert_child_at_index(this.actor, 0);
    }

    /** Shows `activities` (cached properties, most relevant first): the first rows, then "+N more". */
    show(activities) {
        if (!this.actor)
            return;
        const shown = activities.slice(0, LOCK_SCREEN_ROWS);
        while (this._rows.length < shown.length) {
            const row = new LockRow();
            this.actor.insert_child_at_index(row.actor, this._rows.length);
            this._rows.push(row);
        }
        this._rows.forEach((row, index) => {
            row.actor.visible = index < shown.length;
            if (row.actor.visible)
                row.update(shown[index]);
        });
        const more = activities.length - shown.length;
        setText(this._more, more > 0 ? `+${more} more` : '');
        this._more.visible = more > 0;
        this.actor.visible = shown.length > 0;
    }

    destroy() {
        this.actor?.destroy();
        this.actor = null;
    }
};
