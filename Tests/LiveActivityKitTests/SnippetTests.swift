import LiveActivityKit
import Testing

// This file imports LiveActivityKit alone (no Foundation): the iOS code, with
// `Date`, `UUID` and `TimeInterval`, must compile with only the import changed.

/// The attributes of the snippet: a nested `ContentState` of nested Codable structs,
/// a UUID, a Date and a TimeInterval (the same type as the focusflow example's).
struct FocusSessionAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var progress: SessionProgress
        var sessionID: UUID
        var startedAt: Date
        var plannedDuration: TimeInterval
        var task: String?
    }

    var sessionType: SessionType
    var minutes: Int
    var startTime: Date
}

enum SessionType: String, Codable, Hashable {
    case pomodoro = "Pomodoro", deepWork = "Deep Work", flowState = "Flow State"
}

struct SessionProgress: Codable, Hashable {
    enum Phase: String, Codable, Hashable { case focusing, completed, cancelled }
    var phase: Phase
    var completedToday: Int
}

@Suite("The issue's snippet, with only import LiveActivityKit", .timeLimit(.minutes(5)))
struct SnippetTests {
    @Test("Compiles and drives a real card through start, update and end")
    func snippet() async throws {
        let world = try KitWorld()
        try await world.run {
            let attributes = FocusSessionAttributes(sessionType: .deepWork, minutes: 45, startTime: Date())
            let initialState = FocusSessionAttributes.ContentState(
                progress: SessionProgress(phase: .focusing, completedToday: 2), sessionID: UUID(),
                startedAt: Date(timeIntervalSince1970: 1_796_125_594.5), plannedDuration: 45 * 60, task: "Write the report")
            var updatedState = initialState
            updatedState.task = "Send the report"
            var finalState = updatedState
            finalState.progress.phase = .completed

            let content = ActivityContent(state: initialState, staleDate: nil)
            let activity = try Activity<FocusSessionAttributes>.request(attributes: attributes, content: content, pushType: nil)
            #expect(world.waitForCard { $0.body.contains("Task: Write the report") } != nil)
            var seen = 0
            for activity in Activity<FocusSessionAttributes>.activities {
                seen += 1
                #expect(activity.content.state == initialState)
                await activity.update(ActivityContent(state: updatedState, staleDate: nil))
                #expect(world.waitForCard { $0.body.contains("Task: Send the report") } != nil)
                await activity.end(ActivityContent(state: finalState, staleDate: nil), dismissalPolicy: .immediate)
            }
            #expect(seen == 1)
            #expect(world.waitUntilGone(activity.id))
            #expect(activity.activityState == .dismissed)
        }
    }
}
