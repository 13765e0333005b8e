import Testing
@testable import Notifications

/// The per-server table: which server gets the `value` hint, low routine urgency, seconds, the identical-notification guard.
@Suite(.timeLimit(.minutes(5)))
struct ServerProfileTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let info: ServerInfo
        let kind: ServerKind
        let valueHint: Bool
        let urgencyLow: Bool
        let seconds: Bool
        let identical: Double
        var testDescription: String { info.name }
    }

    static let rows: [Row] = [
        Row(info: ServerInfo(name: "gnome-shell", vendor: "GNOME", version: "44.9", specVersion: "1.2",
                             capabilities: ["actions", "body", "body-markup", "persistence", "sound"]),
            kind: .gnomeShell, valueHint: false, urgencyLow: true, seconds: false, identical: 0),
        Row(info: ServerInfo(name: "Plasma", vendor: "KDE", version: "6.0", specVersion: "1.2",
                             capabilities: ["body", "body-hyperlinks", "body-markup", "actions"]),
            kind: .kdePlasma, valueHint: false, urgencyLow: false, seconds: true, identical: 1),
        Row(info: ServerInfo(name: "dunst", vendor: "knopwob", version: "1.9.0", specVersion: "1.2",
                             capabilities: ["actions", "body", "body-hyperlinks", "body-markup"]),
            kind: .dunst, valueHint: true, urgencyLow: false, seconds: true, identical: 0),
        Row(info: ServerInfo(name: "mako", vendor: "emersion", version: "1.8", specVersion: "1.2",
                             capabilities: ["actions", "body", "body-markup"]),
            kind: .mako, valueHint: true, urgencyLow: false, seconds: true, identical: 0),
        Row(info: ServerInfo(name: "SwayNotificationCenter", vendor: "ErikReider", version: "0.10", specVersion: "1.2",
                             capabilities: ["actions", "body", "body-markup"]),
            kind: .swaync, valueHint: true, urgencyLow: false, seconds: true, identical: 0),
        Row(info: ServerInfo(name: "Xfce Notify Daemon", vendor: "Xfce", version: "0.8.2", specVersion: "1.2",
                             capabilities: ["actions", "body", "body-markup"]),
            kind: .xfce4Notifyd, valueHint: false, urgencyLow: false, seconds: true, identical: 0),
        Row(info: ServerInfo(name: "Notification Daemon", vendor: "GNOME", version: "3.20.0", specVersion: "1.2",
                             capabilities: ["actions", "body", "body-hyperlinks", "body-markup"]),
            kind: .notificationDaemon, valueHint: false, urgencyLow: false, seconds: true, identical: 0),
        Row(info: ServerInfo(name: "some-new-server", vendor: "someone", capabilities: ["body"]),
            kind: .unknown, valueHint: false, urgencyLow: false, seconds: true, identical: 0),
    ]

    @Test("detects each known server", arguments: rows)
    func detection(row: Row) {
        #expect(ServerKind(row.info) == row.kind)
        let profile = ServerProfile.detect(row.info)
        #expect(profile.sendsValueHint == row.valueHint)
        #expect(profile.routineUrgencyLow == row.urgencyLow)
        #expect(profile.showsSeconds == row.seconds)
        #expect(profile.minimumIdenticalInterval == row.identical)
        #expect(profile.bodyMarkup == row.info.capabilities.contains("body-markup"))
    }

    /// GNOME 43–47 keep 3 notifications per source, 48+ keep 10: a source per card before 48.
    @Test(arguments: [("43.9", true), ("44.9", true), ("47.2", true), ("48.7", false), ("50.5", false), ("", true)])
    func gnomeBefore48GetsASourcePerCard(version: String, perCard: Bool) {
        let info = ServerInfo(name: "gnome-shell", vendor: "GNOME", version: version, capabilities: ["body-markup"])
        #expect(ServerProfile.detect(info).sourcePerCard == perCard)
        #expect(!ServerProfile.detect(ServerInfo(name: "dunst", version: version)).sourcePerCard)
    }

    /// GNOME 46+ apply a replace's urgency after deciding on its banner.
    @Test(arguments: [("43.9", false), ("45.5", false), ("46.0", true), ("48.7", true), ("50.5", true), ("", false)])
    func gnome46AndLaterApplyTheUrgencyLate(version: String, late: Bool) {
        let info = ServerInfo(name: "gnome-shell", vendor: "GNOME", version: version, capabilities: ["body-markup"])
        #expect(ServerProfile.detect(info).urgencyAppliesLate == late)
        #expect(!ServerProfile.detect(ServerInfo(name: "Plasma", vendor: "KDE", version: version)).urgencyAppliesLate)
    }

    @Test func onlyNotificationDaemonShowsOneCardAtATime() {
        for row in Self.rows {
            #expect(ServerProfile.detect(row.info).maxVisibleCards == (row.kind == .notificationDaemon ? 1 : 0),
                    "\(row.info.name)")
            #expect(ServerProfile.detect(row.info).closesByExpiring == (row.kind == .notificationDaemon),
                    "only notification-daemon ignores CloseNotification on screen: \(row.info.name)")
        }
        let overrides = try? ServerProfile.parseOverrides("[notification daemon]\nmax-visible-cards = 0\n[dunst]\nmax-visible-cards = 2\n")
        let nd = ServerInfo(name: "Notification Daemon", vendor: "GNOME")
        #expect(overrides?.profile(for: nd).maxVisibleCards == 0, "a user may lift the limit")
        #expect(overrides?.profile(for: ServerInfo(name: "dunst")).maxVisibleCards == 2)
        #expect(throws: ProfileOverridesError.self) { try ServerProfile.parseOverrides("max-visible-cards = -1") }
    }

    @Test func bodyMarkupFollowsTheCapability() {
        #expect(ServerProfile.detect(ServerInfo(name: "dunst", capabilities: ["body"])).bodyMarkup == false)
        #expect(ServerProfile.detect(ServerInfo(name: "dunst", capabilities: ["body-markup"])).bodyMarkup == true)
    }

    @Test func displayNameIsNameAndVersion() {
        #expect(ServerInfo(name: "dunst", version: "1.9.0").displayName == "dunst 1.9.0")
        #expect(ServerInfo(name: "dunst").displayName == "dunst")
    }
}

/// The user's overrides file: sections per server, keys, and errors that say what is expected.
@Suite(.timeLimit(.minutes(5)))
struct ProfileOverridesTests {
    static let dunst = ServerInfo(name: "dunst", capabilities: ["body-markup"])
    static let mako = ServerInfo(name: "mako", capabilities: ["body-markup"])

    @Test func sectionsApplyToTheirServerAndStarToAll() throws {
        let overrides = try ServerProfile.parseOverrides("""
        # global first
        shows-seconds = false
        [Dunst]
        sends-value-hint = no   # text bar instead
        minimum-identical-interval = 2.5
        [mako]
        body-markup = false
        routine-urgency-low = true
        """)
        let dunst = overrides.profile(for: Self.dunst)
        #expect(dunst.sendsValueHint == false)
        #expect(dunst.minimumIdenticalInterval == 2.5)
        #expect(dunst.showsSeconds == false)
        #expect(dunst.bodyMarkup == true)
        let mako = overrides.profile(for: Self.mako)
        #expect(mako.sendsValueHint == true)
        #expect(mako.bodyMarkup == false)
        #expect(mako.routineUrgencyLow == true)
        #expect(mako.showsSeconds == false)
    }

    @Test func serverSectionWinsOverStar() throws {
        let overrides = try ServerProfile.parseOverrides("[*]\nshows-seconds = false\n[dunst]\nshows-seconds = true\n")
        #expect(overrides.profile(for: Self.dunst).showsSeconds == true)
        #expect(overrides.profile(for: Self.mako).showsSeconds == false)
    }

    @Test func emptyTextChangesNothing() throws {
        let overrides = try ServerProfile.parseOverrides("\n  # nothing\n")
        #expect(overrides == .none)
        #expect(overrides.profile(for: Self.dunst) == ServerProfile.detect(Self.dunst))
    }

    @Test func errorsNameTheLineAndWhatIsExpected() {
        #expect(throws: ProfileOverridesError(line: 2, message: "sends-value-hint: expected true or false, got \"maybe\"")) {
            try ServerProfile.parseOverrides("[dunst]\nsends-value-hint = maybe")
        }
        #expect(throws: ProfileOverridesError.self) { try ServerProfile.parseOverrides("colour = red") }
        #expect(throws: ProfileOverridesError.self) { try ServerProfile.parseOverrides("[dunst") }
        #expect(throws: ProfileOverridesError.self) { try ServerProfile.parseOverrides("just words") }
        #expect(throws: ProfileOverridesError.self) { try ServerProfile.parseOverrides("minimum-identical-interval = -1") }
    }
}
