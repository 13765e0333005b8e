"""The compact view on the GNOME Shell people run now: 48 (Debian 13, trixie chroot) and 50
(Debian testing, forky chroot). The shell runs headless inside the cached chroot
(scripts/desktops/chroot); the daemon and CLI built on the host run outside it, on the session
bus whose socket lies inside. `make install-files` puts both builds of our extension into the
chroot user's data dir (~/.local/share/gnome-shell/extensions); both are enabled, as after an
upgrade from Debian 12. The checks are panel_gnome.py's (label, rows, a button pauses, hidden
after the last End, a clean disable(), the AppIndicator tray item), read back through Eval.
"""
from gnome_chroot_world import ChrootWorld, make_chroot
from panel_gnome import APPINDICATOR, UUID, UUID45, GnomePanel, PanelRun

SHELL_VERSIONS_45_PLUS = ["45", "46", "47", "48", "49", "50", "51"]

#: The test-only unsafe-mode extension as GNOME 45+ loads it (an ES module).
UNSAFE_EXTENSION_ESM = """// Test-only: lets org.gnome.Shell.Eval read the shell (LiveActivities desktop matrix).
import { Extension } from 'resource:///org/gnome/shell/extensions/extension.js';
export default class UnsafeMode extends Extension {
    enable() { global.context.unsafe_mode = true; }
    disable() { global.context.unsafe_mode = false; }
}
"""


class ChrootGnomeShell:
    """Mixin: a GNOME Shell 45+ inside a cached chroot. `imports.ui` is gone there, but Eval's
    scope has `Main`, so the 43 scripts are used with `imports.ui.main` read as `Main`."""
    suite = None
    unsafe_extension_js = UNSAFE_EXTENSION_ESM
    unsafe_shell_versions = SHELL_VERSIONS_45_PLUS
    notifications_helper = ["gjs", "-m", "/usr/share/gnome-shell/org.gnome.Shell.Notifications"]
    packages = []  # everything the shell needs is in the chroot

    def make_world(self, keep):
        return ChrootWorld(self.name, make_chroot(self.suite), keep=keep)

    def eval_raw(self, world, script):
        return super().eval_raw(world, script.replace("imports.ui.main", "Main"))

    def shell_version(self, world):
        return str(self.bus(world).call_blocking("org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties",
                                                 "Get", "ss", ["org.gnome.Shell", "ShellVersion"], timeout=20))


class ChrootPanelRun(PanelRun):
    """PanelRun for the 45+ build, installed into the chroot user's data dir."""
    uuid = UUID45
    other_uuid = UUID

    def install_prefix(self, world):
        return world.path("home", ".local")

    def install(self):
        super().install()
        return None


class GnomePanelChroot(ChrootGnomeShell, GnomePanel):
    """The gnome-panel checks on GNOME Shell 45+ in a chroot; `suite` picks the shell."""
    extensions = [UUID, UUID45, APPINDICATOR]

    def __init__(self, name, suite, shot_prefix):
        self.name, self.suite, self.shot_prefix = name, suite, shot_prefix

    def play_panel(self, world, bins, repo, shots):
        run = ChrootPanelRun(self, world, bins, repo, shots)
        run.shot_prefix = self.shot_prefix
        run.install()
        self.data_dirs = None
        self.start(world)
        version = self.shell_version(world)
        print(f"  GNOME Shell {version} in {world.root}", flush=True)
        run.add(f"GNOME Shell {version} runs", ("yes", f"ShellVersion {version}"))
        return run.play()


def rows():
    """The matrix rows of this module."""
    return [GnomePanelChroot("gnome48-panel", "trixie", "gnome48"), GnomePanelChroot("gnome50-panel", "forky", "gnome50")]

