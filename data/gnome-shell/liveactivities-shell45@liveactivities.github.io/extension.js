// Live Activities: the daemon's compact view in the top bar (GNOME Shell 45 and newer).
// Everything lives in island.js; nothing is created before enable().
import { Extension } from 'resource:///org/gnome/shell/extensions/extension.js';
import { Island } from './island.js';

export default class LiveActivitiesExtension extends Extension {
    enable() {
        this._island = new Island();
    }

    disable() {
        this._island?.destroy();
        this._island = null;
    }
}
