// The applets' logic in one place, shared by the Plasma 5.27 applet
// (io.github.liveactivities.compact) and the Plasma 6 one (io.github.liveactivities.compact6,
// whose copy of this file is a link to this one): which tray item is ours, the CLI commands
// the 5.27 applet runs, the D-Bus names the Plasma 6 applet calls, and the rows both show.
// Each main.qml only binds these to its Plasma's data sources and widgets.
.pragma library

// The daemon on the session bus.
var busName = "io.github.liveactivities.LiveActivities1";
var managerPath = "/io/github/liveactivities/LiveActivities1";
var managerInterface = busName;
var activityInterface = busName + ".Activity";

// The object path of activity `id` (as the daemon exports it).
function activityPath(id) {
    return managerPath + "/activity/" + id;
}

// The tray item the daemon registers (its `Id` property).
var trayItemId = "liveactivities";

// The CLI: the installed path (substituted by `make install-files`), else from PATH.
function cli(installed) {
    return installed.indexOf("@") === 0 ? "liveactivity" : installed;
}

function quote(text) {
    return "'" + String(text).replace(/'/g, "'\\''") + "'";
}

// The one command that prints every activity with every property, as a JSON array of
// `get --json` objects, from one bus call (`liveactivity list --json`: GetManagedObjects).
function rowsCommand(installed) {
    return quote(cli(installed)) + " list --json";
}

// The command pressing button `key` of activity `id`.
function actionCommand(installed, id, key) {
    return quote(cli(installed)) + " action " + quote(id) + " " + quote(key);
}

// The compact text while something is live (the item's Title then), else "".
function compactText(item) {
    return item && item.Status !== "Passive" ? (item.Title || "") : "";
}

// The rows of the popup from the output of rowsCommand (a JSON array of `get --json` objects).
function rows(stdout) {
    var parsed;
    try {
        parsed = JSON.parse(stdout);
    } catch (error) {
        return [];
    }
    return liveRows(Array.isArray(parsed) ? parsed : []);
}

// The rows of the popup from activities as the daemon's `Get` describes them (the same keys
// as `get --json`): live activities only, each with id, title, body, progress (-1: none),
// paused, stale and its buttons as [{key, label}].
function liveRows(activities) {
    return plain(activities).filter(function (a) {
        return a && (a.status === "active" || a.status === "paused" || a.status === "stale");
    }).map(function (a) {
        return {
            id: String(a.id),
            title: String(a.title || a.kind || a.id),
            body: String(a.body || ""),
            progress: typeof a.progress === "number" ? a.progress : -1,
            paused: a.status === "paused",
            stale: a.status === "stale",
            actions: Array.prototype.map.call(a.actions || [], function (pair) {
                return { key: String(pair[0]), label: String(pair[1]) };
            }),
            segments: segments(a.segments),
            points: a.segments && a.segments.length > 1 ? points(a.points) : [],
            segmentText: String(a["segment-text"] || "")
        };
    });
}

// The row at `index` of `rows`, or a blank row past the end: the popup's rows are bound by
// index (so a new rows array updates them in place), and a row about to go may read once more.
function rowAt(rows, index) {
    return rows[index] || { id: "", title: "", body: "", progress: -1, paused: false, stale: false, actions: [],
                            segments: [], points: [], segmentText: "" };
}

// The daemon's `segments` (a(sdsd): label, share, state, fill) as [{label, share, state, fill}]
// for the popup's segmented bar; [] when the activity has fewer than two (one segment, a focus
// session, is the plain bar).
function segments(list) {
    if (!list || list.length < 2) {
        return [];
    }
    return Array.prototype.map.call(list, function (s) {
        return { label: String(s[0]), share: Number(s[1]) || 0, state: String(s[2]),
                 fill: Math.min(Math.max(Number(s[3]) || 0, 0), 1) };
    });
}

// The daemon's `points` (a(ds): position, label) as [{position, label}] for the marks under the
// segmented bar (drawn with segments only: a plain bar has none).
function points(list) {
    return Array.prototype.map.call(list || [], function (p) {
        return { position: Math.min(Math.max(Number(p[0]) || 0, 0), 1), label: String(p[1]) };
    });
}

// A value from Plasma 6's QML D-Bus module as plain JavaScript: the module hands every
// variant (each value of an a{sv}, each field of a structure) as {value: …}.
function plain(value) {
    if (value === null || value === undefined || typeof value !== "object") {
        return value;
    }
    if (typeof value.length === "number") {
        return Array.prototype.map.call(value, plain);
    }
    var keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "value") {
        return plain(value.value);
    }
    var result = {};
    keys.forEach(function (key) {
        result[key] = plain(value[key]);
    });
    return result;
}

// The ids in a `List` reply (a(ssso): id, kind, status, path), live ones only, in order.
function liveIds(listReply) {
    var ids = [];
    var entries = plain(listReply) || [];
    for (var i = 0; i < entries.length; i++) {
        var status = String(entries[i][2]);
        if (status === "active" || status === "paused" || status === "stale") {
            ids.push(String(entries[i][0]));
        }
    }
    return ids;
}
