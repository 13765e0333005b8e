@testable import MPRIS
import Testing

/// The player compares tracks field by field once a second instead of building two `Metadata`
/// dictionaries (issue 29): the comparison must say "same" exactly when the dictionaries are equal.
@Suite(.timeLimit(.minutes(1))) struct MediaPlayerTrackTests {
    private static let base = MediaPlayerTrack(activityID: "a1", title: "Pomodoro", artist: "24m left · ends at 12:22",
                                               lengthSeconds: 1500, isRunning: true)

    @Test(arguments: [
        base,
        MediaPlayerTrack(activityID: "a2", title: "Pomodoro", artist: "24m left · ends at 12:22", lengthSeconds: 1500, isRunning: true),
        MediaPlayerTrack(activityID: "a1", title: "Deep Work", artist: "24m left · ends at 12:22", lengthSeconds: 1500, isRunning: true),
        MediaPlayerTrack(activityID: "a1", title: "Pomodoro", artist: "23m left · ends at 12:22", lengthSeconds: 1500, isRunning: true),
        MediaPlayerTrack(activityID: "a1", title: "Pomodoro", artist: "24m left · ends at 12:22", lengthSeconds: 1800, isRunning: true),
        MediaPlayerTrack(activityID: "a1", title: "Pomodoro", artist: "24m left · ends at 12:22", lengthSeconds: nil, isRunning: true),
        // Under a microsecond apart: the same `mpris:length`.
        MediaPlayerTrack(activityID: "a1", title: "Pomodoro", artist: "24m left · ends at 12:22", lengthSeconds: 1500.0000001, isRunning: true),
        // Paused: PlaybackStatus changes, Metadata does not.
        MediaPlayerTrack(activityID: "a1", title: "Pomodoro", artist: "24m left · ends at 12:22", lengthSeconds: 1500, isRunning: false),
    ])
    func theComparisonAgreesWithTheDictionaries(_ other: MediaPlayerTrack) {
        #expect(Self.base.hasSameMetadata(as: other) == (Self.base.metadata == other.metadata))
    }

    @Test func onlyTheFieldsMetadataCarriesCount() {
        let paused = MediaPlayerTrack(activityID: "a1", title: "Pomodoro", artist: "24m left · ends at 12:22",
                                      lengthSeconds: 1500, isRunning: false)
        #expect(Self.base.hasSameMetadata(as: paused))
        let retitled = MediaPlayerTrack(activityID: "a1", title: "Flow State", artist: "24m left · ends at 12:22",
                                        lengthSeconds: 1500, isRunning: true)
        #expect(!Self.base.hasSameMetadata(as: retitled))
    }
}
