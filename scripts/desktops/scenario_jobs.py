"""The scenario under KDE Plasma with the KDE job backend on (the default): each activity
with progress shows as a KDE job (a popup with a real progress bar and a cancel button),
and its card is withdrawn, so the checks read the jobs our daemon made on plasmashell."""
import time

from scenario import ALERT_TITLE, APPS, check, na, no, yes


def job_paths(run):
    """requestView calls of our daemon, with the job path plasmashell returned, in order."""
    record = run.record()
    paths = []
    for call in record.calls("requestView", "org.kde.JobViewServerV2"):
        if call["sender"] != run.daemon_name:
            continue
        reply = record.reply_to(call)
        paths.append((call["args"][2].get("title", {}).get("v"), reply["args"][0] if reply and reply["kind"] == "return"
                      else (reply or {}).get("error")))
    return paths


def job_calls(run, member):
    return [c for c in run.record().calls(member, "org.kde.JobViewV2") if c["sender"] == run.daemon_name]


def play_jobs(run):
    server, world, row = run.server, run.world, run.row
    run.read_version()
    now = int(time.time())
    run.la("start", "focus", "session-type=Pomodoro", "task=Write the report", "--id", "focus")
    run.la("start", "fasting", "fasting-hours=16", f"start-time={now - 8 * 3600 + 120}", "--id", "fast")
    run.la("start", "generic", "title=Tea", "body=Green tea steeping", f"timer-start={now}",
           f"timer-end={now + 240}", "--id", "tea", "--app-name", APPS["tea"])
    run.wait(lambda: len([p for _, p in job_paths(run) if p and p.startswith("/")]) == 3, timeout=8)
    time.sleep(2)
    jobs = job_paths(run)
    paths = [p for _, p in jobs if p and p.startswith("/")]
    popups = server.on_screen(world)
    cards = run.notifies()
    row["card shown"] = check(len(paths) == 3 and popups == 3 and not cards,
                              f"3 KDE jobs ({', '.join(t for t, _ in jobs)}), {popups} popups, no card beside them",
                              f"jobs {jobs}, {popups} popups, {len(cards)} cards")

    mark_percent = len(job_calls(run, "setPercent"))
    mark_info = len(job_calls(run, "setDescriptionField"))
    for _ in range(3):
        run.la("extend", "fast", "5m")
        time.sleep(1.3)
    time.sleep(2.5)
    updates = job_calls(run, "setDescriptionField")[mark_info:] + job_calls(run, "setPercent")[mark_percent:]
    after = server.on_screen(world)
    more_jobs = len(job_paths(run)) - len(jobs)
    row["replaced in place"] = check(updates and more_jobs == 0 and after == 3 and all(u["path"] in paths for u in updates),
                                     f"{len(updates)} job updates on the same 3 jobs, {after} popups",
                                     f"{len(updates)} updates, {more_jobs} new jobs, {after} popups")
    fast_path = next((p for t, p in jobs if t == "Fasting"), None)
    percents = [c["args"][0] for c in job_calls(run, "setPercent") if c["path"] == fast_path]
    row["progress visible"] = check(percents and percents[-1] == 49,
                                    f"the fast's job shows {percents[-1] if percents else '?'}% (a real progress bar)",
                                    f"setPercent on the fast's job: {percents}")
    new_cards = run.notifies()
    row["routine updates silent"] = check(not new_cards and after == popups,
                                          f"no card, {after} popups before and after",
                                          f"{len(new_cards)} cards, popups {popups} -> {after}")

    mark = len(run.notifies())
    run.la("update", "fast", "--alert-title", ALERT_TITLE, "--alert-body", "8 hours fasted",
           "--alert-sound", "message-new-instant")
    run.wait(lambda: any(n["summary"] == ALERT_TITLE and (n["id"] or n["error"]) for n in run.notifies()[mark:]),
             timeout=5)
    time.sleep(1.5)
    alert = [n for n in run.notifies()[mark:] if n["summary"] == ALERT_TITLE]
    shown = server.on_screen(world)
    row["alert shown"] = check(alert and alert[0]["id"] and shown == 4 and "value" not in alert[0]["hints"],
                               f"the alert came as a card (id {alert[0]['id'] if alert else '?'}), {shown} popups",
                               f"alert {alert[:1]}, {shown} popups")
    server.screenshot(world, run.screenshot_path)
    row["button works"] = na("a job's cancel button cannot be pressed without a pointer (tested on a fake job "
                             "server); card buttons: see plasma-cards")
    if getattr(server, "panel", False):
        from plasma_panel import check_panel
        check_panel(run)

    for key in APPS:
        run.la("end", key, "--dismissal", "immediate")
    time.sleep(3)
    terminated = {c["path"] for c in job_calls(run, "terminate")}
    left = server.on_screen(world)
    row["End removes the card"] = check(set(paths) <= terminated and left == 0,
                                        f"all 3 jobs terminated, {left} popups left",
                                        f"terminated {len(terminated & set(paths))} of 3, {left} popups left")
    if getattr(server, "panel", False):
        from plasma_panel import check_empty
        check_empty(run)
    run.check_log()
    return row
