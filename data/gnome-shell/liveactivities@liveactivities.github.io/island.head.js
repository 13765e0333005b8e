/* exported Island */
// GNOME Shell 43/44 (legacy imports). Written at install time as this header, then
// ../shared/rows.js, ../shared/lockscreen.js and ../shared/island.js: the logic has one source for both builds.
const { Gio, GLib, St, Clutter } = imports.gi;
const Main = imports.ui.main;
const PanelMenu = imports.ui.panelMenu;
const PopupMenu = imports.ui.popupMenu;
