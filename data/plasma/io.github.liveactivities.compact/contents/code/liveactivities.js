// The applet's logic in one place: which tray item is ours, the CLI commands it runs, and
// the rows it shows. main.qml only binds these to Plasma's data sources and widgets.
.pragma library

// The tray item the daemon registers (its `Id` property).
var trayItemId = "liveactivities";

// The CLI: the installed path (substituted by `make install-files`), else from PATH.
function cli(installed) {
    return installed.indexOf("@") === 0 ? "liveactivity" : installed;
}

function quote(text) {
    return "'" + String(text).replace(/'/g, "'\\''") + "'";
}

// One shell command printing a JSON array with the `get --json` object of every activity.
function rowsCommand(installed) {
    var la = quote(cli(installed));
    return "sh -c " + quote("printf '['; sep=''; for id in $(" + la + " list | cut -f1); do printf '%s' \"$sep\"; "
                            + la + " get --json \"$id\" || printf 'null'; sep=','; done; printf ']'");
}

// The command pressing button `key` of activity `id`.
function actionCommand(installed, id, key) {
    return quote(cli(installed)) + " action " + quote(id) + " " + quote(key);
}

// The data of our tray item among the `statusnotifieritem` engine's sources, or null.
function ourItem(sources, data) {
    for (var i = 0; i < sources.length; i++) {
        var item = data[sources[i]];
        if (item && item.Id === trayItemId) {
            return item;
        }
    }
    return null;
}

// The compact text while something is live (the item's Title then), else "".
function compactText(item) {
    return item && item.Status !== "Passive" ? (item.Title || "") : "";
}

// The rows of the popup from the output of rowsCommand: live activities only, each with
// id, title, body, progress (-1: none), paused, stale and its buttons as [{key, label}].
function rows(stdout) {
    var parsed;
    try {
        parsed = JSON.parse(stdout);
    } catch (error) {
        return [];
    }
    if (!Array.isArray(parsed)) {
        return [];
    }
    return parsed.filter(function (a) {
        return a && (a.status === "active" || a.status === "paused" || a.status === "stale");
    }).map(function (a) {
        return {
            id: a.id,
            title: a.title || a.kind || a.id,
            body: a.body || "",
            progress: typeof a.progress === "number" ? a.progress : -1,
            paused: a.status === "paused",
            stale: a.status === "stale",
            actions: (a.actions || []).map(function (pair) {
                return { key: pair[0], label: pair[1] };
            })
        };
    });
}
