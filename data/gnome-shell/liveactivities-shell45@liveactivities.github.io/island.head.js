// GNOME Shell 45 and newer (ES modules). Written at install time as this header, then
// ../shared/rows.js, ../shared/lockscreen.js and ../shared/island.js: the logic has one source for both builds.
import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import St from 'gi://St';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

export { Island };
