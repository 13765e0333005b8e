import Testing
import ActivityFiles
@testable import LiveActivitiesService

/// The daemon's config file: what each line sets, and what a bad line says.
@Suite(.timeLimit(.minutes(5))) struct DaemonConfigTests {
    @Test func defaultsWhenEmpty() {
        let (config, problems) = DaemonConfig.parse("")
        #expect(config == DaemonConfig())
        #expect(problems.isEmpty)
        #expect(config.limits.maxLiveActivities == 32 && config.limits.maxPayloadBytes == 4096)
    }

    @Test func everyKeySets() {
        let (config, problems) = DaemonConfig.parse("""
        # comment
        cards = off
        tray = no
        kde-jobs = false   # trailing comment
        min-notify-interval = 2.5
        max-live-activities = 8
        max-payload-bytes = 1024
        dismiss-after = 60
        max-ended-activities = 5
        """)
        #expect(problems.isEmpty)
        #expect(!config.cards && !config.tray && !config.kdeJobs)
        #expect(config.minimumNotifyInterval == 2.5)
        #expect(config.limits.maxLiveActivities == 8)
        #expect(config.limits.maxPayloadBytes == 1024)
        #expect(config.limits.defaultDismissDelay == 60)
        #expect(config.limits.maxEndedActivities == 5)
    }

    /// Issue 26: the lock screen's privacy and the MPRIS player; full and on by default, as on iOS.
    @Test func lockScreenAndMediaPlayerKeys() {
        #expect(DaemonConfig().lockScreen == .full && DaemonConfig().mpris)
        let (config, problems) = DaemonConfig.parse("lock-screen = Private\nmpris = off\n")
        #expect(problems.isEmpty)
        #expect(config.lockScreen == .private && !config.mpris)
        #expect(DaemonConfig.parse("lock-screen = off").0.lockScreen == .off)
    }

    @Test(arguments: [
        ("colour = red", "line 1: unknown key \"colour\""),
        ("cards = maybe", "line 1: cards: expected on or off, got \"maybe\""),
        ("max-live-activities = 0", "line 1: max-live-activities: expected an integer from 1 to 1000, got \"0\""),
        ("just words", "line 1: expected key = value, got \"just words\""),
        ("lock-screen = hidden", "line 1: lock-screen: expected full, private or off, got \"hidden\""),
        ("mpris = sometimes", "line 1: mpris: expected on or off, got \"sometimes\""),
    ])
    func badLinesAreNamedAndIgnored(line: String, message: String) {
        let (config, problems) = DaemonConfig.parse(line)
        #expect(config == DaemonConfig())
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix(message) == true, "\(problems)")
    }
}
