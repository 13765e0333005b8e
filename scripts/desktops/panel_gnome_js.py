"""What the GNOME panel check evaluates inside GNOME Shell (org.gnome.Shell.Eval): it reads the
top bar the way a user sees it: visible labels, buttons, the open menu's rows."""
import json

#: `walk(actor, out)`: every visible St.Label text (non-empty), St.Button label, progress fill and
#: segmented bar (each track's width, fill width, label and style classes) and the marks of its
#: points (each one's centre and label, from the bar's left edge).
WALK = """
const St = imports.gi.St;
const walk = (actor, out) => {
  for (const child of actor.get_children()) {
    if (!child.visible) continue;
    if (child instanceof St.Button) { out.buttons.push(child.label); continue; }
    if (child instanceof St.Label) { if (child.text) out.texts.push(child.text); continue; }
    if (child.has_style_class_name && child.has_style_class_name('liveactivities-progress-track'))
      out.progress = child.get_first_child().width / 240;
    if (child.has_style_class_name && child.has_style_class_name('liveactivities-segments')) {
      out.segments = child.get_children().map(track => ({ width: track.width, fill: track.get_first_child().width,
        label: track.accessible_name, classes: track.get_style_class_name() }));
      const whole = out.segments.reduce((sum, t) => sum + t.width, 0);
      if (out.progress === null && whole > 0)  // a segmented bar stands for the plain one
        out.progress = out.segments.reduce((sum, t) => sum + t.fill, 0) / whole;
      continue;
    }
    if (child.has_style_class_name && child.has_style_class_name('liveactivities-points')) {
      out.points = child.get_children().filter(mark => mark.visible)
        .map(mark => ({ center: mark.x + mark.width / 2, label: mark.accessible_name }));
      continue;
    }
    walk(child, out);
  }
  return out;
};
const read = actor => walk(actor, { texts: [], buttons: [], progress: null, segments: null, points: [] });
"""

ISLAND = WALK + """
const button = imports.ui.main.panel.statusArea['liveactivities'];
if (!button) return null;
const label = button.get_children().find(c => c instanceof St.Label);
const [x, y] = button.get_transformed_position();
return { visible: button.visible && button.container.visible, inPanel: !!button.container.get_parent(),
         texts: read(button).texts, classes: label ? label.get_style_class_name() : null,
         x, y, width: button.width, height: button.height };
"""

#: Opens the island's menu and reads one entry per menu section.
MENU = WALK + """
const button = imports.ui.main.panel.statusArea['liveactivities'];
if (!button) return null;
button.menu.open(false);
const sections = button.menu._getMenuItems().filter(s => s.actor.visible).map(section => {
  const out = read(section.actor);
  const find = actor => actor.get_children().reduce((found, c) => found || (c.has_style_class_name &&
    c.has_style_class_name('liveactivities-title') ? c : find(c)), null);
  const title = find(section.actor);
  out.titleClasses = title ? title.get_style_class_name() : null;
  const find2 = actor => actor.get_children().reduce((found, c) => found || (c.has_style_class_name &&
    c.has_style_class_name('liveactivities-row') ? c : find2(c)), null);
  const row = find2(section.actor);
  out.separator = row ? row.has_style_class_name('liveactivities-following') : null;
  return out;
});
const [x, y] = button.menu.actor.get_transformed_position();
return { open: button.menu.isOpen, sections, x, y, width: button.menu.actor.width, height: button.menu.actor.height };
"""

CLOSE_MENU = """
const button = imports.ui.main.panel.statusArea['liveactivities'];
if (button) button.menu.close(false);
return true;
"""

APPINDICATORS = WALK + """
const area = imports.ui.main.panel.statusArea;
return Object.keys(area).filter(k => k.includes('appindicator')).map(key => {
  const item = area[key];
  let menu = null;
  if (item.menu && item.menu.box) { item.menu.open(false); menu = read(item.menu.box).texts; item.menu.close(false); }
  return { key, visible: item.visible && item.container.visible, texts: read(item).texts, menu };
});
"""

EXTENSION_STATE = "return imports.ui.main.extensionManager.lookup(%s)?.state ?? null;"
EXTENSION_INFO = """const e = imports.ui.main.extensionManager.lookup(%s);
return e ? { state: e.state, error: e.error ? String(e.error) : '' } : null;"""
DISABLE = "return imports.ui.main.extensionManager.disableExtension(%s);"
ENABLE = "return imports.ui.main.extensionManager.enableExtension(%s);"

#: After disable(): our key in statusArea, and any actor with one of our style classes
#: (`liveactivities-…`; the AppIndicator's icon has `appindicator-icon-liveactivities`) on stage.
LEFTOVERS = """
const found = [];
const walk = actor => {
  for (const child of actor.get_children()) {
    const name = child.get_style_class_name ? child.get_style_class_name() || '' : '';
    if (name.split(/\s+/).some(c => c.startsWith('liveactivities-'))) found.push(name);
    walk(child);
  }
};
walk(global.stage);
return { statusArea: 'liveactivities' in imports.ui.main.panel.statusArea, actors: found };
"""


def press(title, label):
    """Presses button `label` in the menu section whose first text is `title` (as a click does)."""
    return WALK + f"""
const button = imports.ui.main.panel.statusArea['liveactivities'];
if (!button) return 'no island';
const section = button.menu._getMenuItems().find(s => read(s.actor).texts[0] === {json.dumps(title)});
if (!section) return 'no section';
const find = actor => {{
  for (const child of actor.get_children()) {{
    if (child instanceof St.Button && child.label === {json.dumps(label)}) return child;
    const found = find(child);
    if (found) return found;
  }}
  return null;
}};
const target = find(section.actor);
if (!target) return 'no button';
target.emit('clicked', 1);
return 'pressed';
"""


def script(body):
    """A body (with `return`) as one expression whose value Eval hands back as JSON text."""
    return "(() => JSON.stringify((() => {" + body + "})()))()"
