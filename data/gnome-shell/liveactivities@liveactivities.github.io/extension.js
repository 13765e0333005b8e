/* exported init, enable, disable */
// Live Activities: the daemon's compact view in the top bar (GNOME Shell 43 and 44).
// Everything lives in island.js; nothing is created before enable().
const Me = imports.misc.extensionUtils.getCurrentExtension();

let island = null;

function init() {
}

function enable() {
    island = new Me.imports.island.Island();
}

function disable() {
    island.destroy();
    island = null;
}
