import ActivityModel
import KDEJobs
import Notifications
import Tray

/// What to do with one activity's card this round.
enum CardOutput: Equatable {
    /// Send this card; with an alert it pops up again and may sound, without it is a quiet replace.
    case show(Card, alert: CardAlert?)
    /// A KDE job shows the activity: take its card off the screen.
    case withdraw
    /// The card on screen already shows this (or there is none to withdraw): send nothing.
    case unchanged
}

/// One activity's card at one moment, and the alert hold to keep for the next rounds.
struct ComposedCard: Equatable {
    var output: CardOutput
    /// The hold to keep (nil: none).
    var hold: AlertHold?
    /// Set when a new hold starts: compose again at this moment even if nothing ticks, so the
    /// card goes back to its live text.
    var recomposeAt: Double?
}

/// Where a card's text is composed: from the activity, its render, the alert of this round,
/// the hold kept from earlier ones and `now`. Pure, so every rule of the card (the 15 s alert
/// hold, the final card, the card beside a KDE job, sending only what changed) is a table test;
/// the service only carries out what it returns.
enum CardComposer {
    /// The card of a snapshot as rendered, before any alert: the kind's icon, progress at the
    /// whole percent it shows (so a timer's continuous progress makes no new card), buttons while live.
    static func baseCard(of snapshot: ActivitySnapshot, kindDisplayName: String?) -> Card {
        let rendered = snapshot.rendered
        let live = snapshot.activity.status.isLive
        return Card(appName: appName(of: snapshot, kindDisplayName: kindDisplayName),
                    title: rendered.title, body: rendered.body,
                    iconName: rendered.iconName.isEmpty ? nil : rendered.iconName,
                    progress: rendered.progressPercent.map { Double($0) / 100 },
                    buttons: live ? rendered.buttons : [],
                    category: "x-liveactivities", desktopEntry: snapshot.activity.appID ?? CallerApps.ownDesktopEntry,
                    segments: rendered.segments.flatMap { $0.isDrawnApart ? $0 : nil })
    }

    /// The card for this round.
    /// - Parameters:
    ///   - alert: an alert raised this round (an Update's alert options, a phase change, a timer at zero).
    ///   - hold: the hold kept from an earlier alert.
    ///   - lastCard: the card the sink got last (nil: none on screen).
    ///   - besideJob: a KDE job shows this activity; the card only comes for an alert.
    static func compose(_ snapshot: ActivitySnapshot, kindDisplayName: String?, alert: Alert?, hold: AlertHold?,
                        lastCard: Card?, besideJob: Bool, now: Double) -> ComposedCard {
        var card = baseCard(of: snapshot, kindDisplayName: kindDisplayName)
        if besideJob {
            card.progress = nil  // the job draws the bar
            card.segments = nil
            card.quiet = true
        }
        var kept = hold
        var recomposeAt: Double?
        if let alert {
            kept = AlertHold(title: alert.title, body: alert.body, until: now + AlertHold.seconds)
            recomposeAt = now + AlertHold.seconds
        } else if !snapshot.activity.status.isLive {
            kept = nil  // the final card shows how it ended, not an earlier alert
        }
        if let held = kept {
            if held.until > now || alert != nil {
                card.quiet = false  // a quiet (low urgency) replace would take the alert's popup down (Plasma)
                if !held.title.isEmpty { card.title = held.title }
                if !held.body.isEmpty { card.body = held.body + "\n" + card.body }
            } else {
                kept = nil
            }
        }
        let output: CardOutput
        if let alert {
            output = .show(card, alert: CardAlert(soundName: alert.sound))
        } else if kept == nil, besideJob {
            output = lastCard == nil ? .unchanged : .withdraw
        } else {
            output = lastCard == card ? .unchanged : .show(card, alert: nil)
        }
        return ComposedCard(output: output, hold: kept, recomposeAt: recomposeAt)
    }

    /// What the KDE job of an activity shows (nil: it should have none: no progress, not live,
    /// or cards switched off with `Enabled`), with the card's application name and icon.
    static func job(of snapshot: ActivitySnapshot, kindDisplayName: String?, enabled: Bool) -> KDEJobContent? {
        guard enabled else { return nil }
        let rendered = snapshot.rendered
        let status = snapshot.activity.status
        return KDEJobContent.of(title: rendered.title, body: rendered.body, progress: rendered.progress,
                                live: status.isLive, paused: status == .paused,
                                appName: appName(of: snapshot, kindDisplayName: kindDisplayName),
                                iconName: rendered.iconName)
    }

    /// The card's application name: the activity's `app-name`, else its kind's display name.
    static func appName(of snapshot: ActivitySnapshot, kindDisplayName: String?) -> String {
        snapshot.activity.appName ?? kindDisplayName ?? "Live Activities"
    }

    /// What the tray item shows: the most relevant live activity's card and icon, the compact
    /// text as its label, and a menu section per live activity (`live`, most relevant first;
    /// empty: nothing live).
    static func tray(live: [ActivitySnapshot], compactText: String) -> TrayState {
        guard let top = live.first else { return .idle }
        let rendered = top.rendered
        let menu = live.map { snapshot in
            TrayMenuSection(activityID: snapshot.activity.id.rawValue, title: snapshot.rendered.title,
                            body: snapshot.rendered.body, actions: ActivityActions.of(snapshot))
        }
        return TrayState(isLive: true, cardTitle: rendered.title, cardBody: rendered.body, iconName: rendered.iconName,
                         label: compactText, menu: menu)
    }
}
