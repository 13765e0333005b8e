#!/usr/bin/env python3
"""How often GNOME Shell draws for each side's top-bar label (issue 29, docs/benchmarks.md).

    scripts/desktops/frames_gnome.py [--shell 43|48] [--seconds N] [--runs N] [BUILD_DIR]

Starts, as scripts/desktops/bench_gnome.py does, a headless GNOME Shell with one Pomodoro on
our daemon and island, or on gnome-pomodoro and its extension, alternating (ours, peer, ...).
After 8 s it counts, through the shell's own Eval, the stage's frames (`after-paint`), the
changes of the side's top-bar label text (`notify::text`) and the re-allocations of its button
(`notify::allocation`) over the window, and prints them, one line a run. GNOME Shell 48 runs in
the Debian 13 chroot (root).
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_gnome  # noqa: E402

INSTALL_JS = """(() => {
  const St = imports.gi.St;
  const area = imports.ui.main.panel.statusArea;
  const counts = globalThis.__laFrameCounts = {frames: 0, labelChanges: 0, allocations: 0, labels: 0};
  global.stage.connect('after-paint', () => counts.frames++);
  const labels = actor => actor.get_children().flatMap(c => c instanceof St.Label ? [c] : labels(c));
  for (const key of ['liveactivities', 'gnome-pomodoro']) {
    if (!area[key]) continue;
    for (const label of labels(area[key])) {
      counts.labels++;
      label.connect('notify::text', () => counts.labelChanges++);
    }
    area[key].connect('notify::allocation', () => counts.allocations++);
  }
  return JSON.stringify(counts);
})()"""
READ_JS = "(() => JSON.stringify(globalThis.__laFrameCounts))()"


def count(side, shell_class, bins, seconds):
    starter = bench_gnome.start_ours if side == "ours" else bench_gnome.start_peer
    world = None
    try:
        shell, world, _, _ = starter(shell_class, bins)
        time.sleep(8)
        installed = shell.eval(world, INSTALL_JS)
        if not installed or installed.get("labels", 0) == 0:
            raise SystemExit(f"{side}: no top-bar label found ({installed})")
        time.sleep(seconds)
        return shell.eval(world, READ_JS)
    finally:
        if world is not None:
            world.stop()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shell", choices=["43", "48"], default="43")
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--runs", type=int, default=2, help="runs a side")
    parser.add_argument("build", nargs="?", default=os.path.join(bench_gnome.REPO, ".build", "release"))
    options = parser.parse_args(argv)
    shell_class = bench_gnome.HostShell if options.shell == "43" else bench_gnome.ChrootShell
    for index in range(options.runs):
        for side in ("ours", "peer"):
            counts = count(side, shell_class, options.build, options.seconds)
            print(f"GNOME Shell {options.shell}, {side} {index + 1}, {options.seconds} s: frames {counts['frames']}, "
                  f"label changes {counts['labelChanges']}, re-allocations {counts['allocations']}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
