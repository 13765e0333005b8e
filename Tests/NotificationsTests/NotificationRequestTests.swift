import Testing
@testable import Notifications

/// The exact Notify parameters for a card, per server profile and alert.
@Suite(.timeLimit(.minutes(5)))
struct NotificationRequestTests {
    static let dunst = ServerProfile.detect(ServerInfo(name: "dunst", capabilities: ["body-markup"]))
    static let gnome = ServerProfile.detect(ServerInfo(name: "gnome-shell", vendor: "GNOME", capabilities: ["body-markup"]))
    static let xfce = ServerProfile.detect(ServerInfo(name: "Xfce Notify Daemon", capabilities: []))

    static let card = Card(appName: "Focus", title: "Deep Work <45 min>", body: "Write & <b>ship</b>",
                           iconName: "alarm-symbolic", progress: 0.45,
                           buttons: [CardButton(key: "complete", label: "Complete"), CardButton(key: "cancel", label: "Cancel")],
                           category: "x-liveactivities", desktopEntry: "liveactivityd")

    @Test func routineUpdateOnDunst() {
        let request = NotificationRequest.make(card: Self.card, profile: Self.dunst, alert: nil)
        #expect(request.appName == "Focus")
        #expect(request.summary == "Deep Work <45 min>")
        #expect(request.body == "Write &amp; &lt;b&gt;ship&lt;/b&gt;")
        #expect(request.iconName == "alarm-symbolic")
        #expect(request.expireTimeout == 0)
        #expect(request.urgency == .normal)
        #expect(request.flatActions == ["complete", "Complete", "cancel", "Cancel"])
        #expect(request.hints == [
            "resident": .boolean(true),
            "urgency": .byte(1),
            "value": .int32(45),
            "suppress-sound": .boolean(true),
            "category": .string("x-liveactivities"),
            "desktop-entry": .string("liveactivityd"),
        ])
        #expect(request.hints["value"]?.dbusSignature == "i")
        #expect(request.hints["urgency"]?.dbusSignature == "y")
        #expect(request.hints["resident"]?.dbusSignature == "b")
    }

    @Test func aSourceSlotAddsInvisibleCharactersToTheAppNameOnly() {
        let request = NotificationRequest.make(card: Self.card, profile: Self.gnome, alert: nil, sourceSlot: 2)
        #expect(request.appName == "Focus\u{200B}\u{200B}")
        #expect(request.summary == NotificationRequest.make(card: Self.card, profile: Self.gnome, alert: nil).summary)
        #expect(NotificationRequest.make(card: Self.card, profile: Self.gnome, alert: nil, sourceSlot: 0).appName == "Focus")
    }

    @Test func aSettledRequestIsTheSameCardAtLowUrgencyKeepingItsSound() {
        let alert = NotificationRequest.make(card: Self.card, profile: Self.gnome, alert: CardAlert(soundName: "bell"))
        let settled = alert.settled()
        #expect(alert.urgency == .normal && settled.urgency == .low)
        #expect(settled.hints["urgency"] == .byte(0) && settled.hints["sound-name"] == .string("bell"))
        var same = settled
        same.urgency = alert.urgency
        same.hints["urgency"] = alert.hints["urgency"]
        #expect(same == alert, "nothing else changes")
    }

    /// GNOME 46+ replays a notification's sound whenever its banner is re-shown, and the settled
    /// follow-up re-shows it: the first of the pair must be silent, the follow-up alone sounds.
    @Test func aSilencedRequestIsTheSameCardWithoutItsSound() {
        let alert = NotificationRequest.make(card: Self.card, profile: Self.gnome, alert: CardAlert(soundName: "bell"))
        let silenced = alert.silenced()
        #expect(silenced.hints["sound-name"] == nil && silenced.hints["suppress-sound"] == .boolean(true))
        #expect(silenced.urgency == .normal && silenced.hints["urgency"] == .byte(1), "still pops its banner")
        #expect(silenced.settled().hints["sound-name"] == nil, "settling does not bring a sound back")
        #expect(alert.settled().hints["sound-name"] == .string("bell"))
        var same = silenced
        same.hints["sound-name"] = alert.hints["sound-name"]
        same.hints["suppress-sound"] = nil
        #expect(same == alert, "nothing else changes")
        let routine = NotificationRequest.make(card: Self.card, profile: Self.gnome, alert: nil, firstShow: true)
        #expect(routine.silenced() == routine, "a card without a sound is already silent")
    }

    @Test func routineUpdateOnGnomeIsLowUrgencyWithTextBar() {
        let request = NotificationRequest.make(card: Self.card, profile: Self.gnome, alert: nil)
        #expect(request.urgency == .low)
        #expect(request.hints["urgency"] == .byte(0))
        #expect(request.hints["value"] == nil)
        #expect(request.body == "Write &amp; &lt;b&gt;ship&lt;/b&gt;\n▰▰▰▰▱▱▱▱▱▱ 45%")
    }

    @Test func alertOnGnomeIsNormalUrgencyWithSound() {
        let request = NotificationRequest.make(card: Self.card, profile: Self.gnome, alert: CardAlert(soundName: "complete"))
        #expect(request.urgency == .normal)
        #expect(request.hints["urgency"] == .byte(1))
        #expect(request.hints["sound-name"] == .string("complete"))
        #expect(request.hints["suppress-sound"] == nil)
    }

    @Test func newCardOnGnomeComesAtNormalUrgencyOnceThenRoutineIsLow() {
        let first = NotificationRequest.make(card: Self.card, profile: Self.gnome, alert: nil, firstShow: true)
        #expect(first.urgency == .normal, "the banner shows once when the card appears")
        #expect(first.hints["sound-name"] == nil, "still silent")
        let next = NotificationRequest.make(card: Self.card, profile: Self.gnome, alert: nil)
        #expect(next.urgency == .low)
        var quiet = Self.card
        quiet.quiet = true
        #expect(NotificationRequest.make(card: quiet, profile: Self.gnome, alert: nil, firstShow: true).urgency == .low,
                "a quiet card stays low even when new")
    }

    @Test func quietCardIsLowUrgencyOnEveryServerButAnAlertStillPops() {
        var quiet = Self.card
        quiet.quiet = true
        let routine = NotificationRequest.make(card: quiet, profile: Self.dunst, alert: nil)
        #expect(routine.urgency == .low)
        #expect(routine.hints["urgency"] == .byte(0))
        let alert = NotificationRequest.make(card: quiet, profile: Self.dunst, alert: CardAlert(soundName: "complete"))
        #expect(alert.urgency == .normal)
        #expect(alert.hints["sound-name"] == .string("complete"))
    }

    @Test func alertWithoutSoundNamesNoSound() {
        let request = NotificationRequest.make(card: Self.card, profile: Self.dunst, alert: CardAlert())
        #expect(request.hints["sound-name"] == nil)
        #expect(request.hints["suppress-sound"] == nil)
    }

    @Test func serverWithoutMarkupGetsStrippedRawText() {
        let request = NotificationRequest.make(card: Self.card, profile: Self.xfce, alert: nil)
        #expect(request.body == "Write & ship\n▰▰▰▰▱▱▱▱▱▱ 45%")
        #expect(request.hints["value"] == nil)
    }

    @Test func minimalCardHasOnlyTheRequiredHints() {
        let card = Card(appName: "Timer", title: "Tea", body: "")
        let request = NotificationRequest.make(card: card, profile: Self.dunst, alert: nil)
        #expect(request.hints.keys.sorted() == ["resident", "suppress-sound", "urgency"])
        #expect(request.iconName == "")
        #expect(request.actions.isEmpty)
        let bar = NotificationRequest.make(card: Card(appName: "T", title: "Tea", progress: 1), profile: Self.xfce, alert: nil)
        #expect(bar.body == "▰▰▰▰▰▰▰▰▰▰ 100%")
    }

    @Test func identityIsTheTextAServerCompares() {
        let routine = NotificationRequest.make(card: Self.card, profile: Self.dunst, alert: nil)
        let alert = NotificationRequest.make(card: Self.card, profile: Self.dunst, alert: CardAlert(soundName: "bell"))
        #expect(routine.identityKey == alert.identityKey)
        var other = Self.card
        other.body = "Write & review"
        #expect(routine.identityKey != NotificationRequest.make(card: other, profile: Self.dunst, alert: nil).identityKey)
        var bar = Self.card
        bar.progress = 0.5
        #expect(NotificationRequest.make(card: Self.card, profile: Self.xfce, alert: nil).identityKey
                != NotificationRequest.make(card: bar, profile: Self.xfce, alert: nil).identityKey)
    }
}
