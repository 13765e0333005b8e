import LiveActivityKit

// FocusFlow on Linux: the iOS app's Live Activity code with `import LiveActivityKit`.
//
//   focusflow start pomodoro|deep-work|flow-state [TASK]   start a session (25, 45 or 90 min)
//   focusflow                                              the running session (found again after a restart) and today's stats
//   focusflow complete | cancel                            end the running session
//   focusflow watch                                        print the session's changes until it ends

let usage = """
Usage: focusflow [status | start pomodoro|deep-work|flow-state [TASK] | complete | cancel | watch]
"""

/// The running session: the first live activity of our type the daemon holds.
func runningSession() -> Activity<FocusSessionAttributes>? {
    Activity<FocusSessionAttributes>.activities.first { $0.activityState == .active || $0.activityState == .stale }
}

func describe(_ activity: Activity<FocusSessionAttributes>) -> String {
    let attributes = activity.attributes
    let end = attributes.startTime.addingTimeInterval(TimeInterval(attributes.minutes * 60))
    let left = max(0, Int(end.timeIntervalSinceNow.rounded(.up)))
    let task = activity.content.state.task.map { " · \($0)" } ?? ""
    return "\(attributes.sessionType.rawValue)\(task): \(left / 60):\(String(format: "%02d", left % 60)) left "
        + "(session \(activity.content.state.sessionID.uuidString.prefix(8)), activity \(activity.id))"
}

func finish(_ reason: ActivityEndReason) async -> Int32 {
    guard let activity = runningSession() else {
        print("No focus session is running.")
        return 1
    }
    var state = activity.content.state
    state.progress.phase = reason == .completed ? .completed : .cancelled
    if reason == .completed { state.progress.completedToday += 1 }
    let policy: ActivityUIDismissalPolicy = reason == .completed ? .default : .immediate
    await activity.end(ActivityContent(state: state, staleDate: nil), dismissalPolicy: policy, reason: reason)
    print(reason == .completed ? "Session completed." : "Session cancelled.")
    return 0
}

func start(_ arguments: [String]) -> Int32 {
    guard let name = arguments.first, let type = SessionType(argument: name) else {
        print(usage)
        return 2
    }
    if let running = runningSession() {
        print("A session is already running: \(describe(running))\nComplete or cancel it first.")
        return 1
    }
    FocusKindFile.install()
    let now = Date()
    let attributes = FocusSessionAttributes(sessionType: type, minutes: type.minutes, startTime: now)
    let task = arguments.dropFirst().joined(separator: " ")
    let initialState = FocusSessionAttributes.ContentState(
        progress: SessionProgress(phase: .focusing, completedToday: 0), sessionID: UUID(), startedAt: now,
        plannedDuration: TimeInterval(type.minutes * 60), task: task.isEmpty ? nil : task)
    do {
        let content = ActivityContent(state: initialState, staleDate: nil)
        let activity = try Activity<FocusSessionAttributes>.request(attributes: attributes, content: content, pushType: nil)
        print("Started: \(describe(activity))")
        return 0
    } catch {
        print("Could not start the session: \(error)")
        return 1
    }
}

func status() -> Int32 {
    if let activity = runningSession() {
        print("Running: \(describe(activity))")
    } else {
        print("No focus session is running.")
    }
    print(FocusStats.load()?.summary ?? "Today: no completed sessions yet")
    return 0
}

/// Follows the running session: its content and state changes, whoever makes them.
func watch() async -> Int32 {
    guard let activity = runningSession() else {
        print("No focus session is running.")
        return 1
    }
    print("Watching: \(describe(activity))")
    let contents = Task {
        for await content in activity.contentUpdates { print("content: phase \(content.state.progress.phase.rawValue)") }
    }
    for await state in activity.activityStateUpdates {
        print("state: \(state)")
        if state == .ended || state == .dismissed { break }
    }
    contents.cancel()
    print(FocusStats.load()?.summary ?? "")
    return 0
}

let arguments = Array(CommandLine.arguments.dropFirst())
let code: Int32
switch arguments.first ?? "status" {
case "status": code = status()
case "start": code = start(Array(arguments.dropFirst()))
case "complete": code = await finish(.completed)
case "cancel": code = await finish(.cancelled)
case "watch": code = await watch()
case "-h", "--help", "help":
    print(usage)
    code = 0
default:
    print(usage)
    code = 2
}
exit(code)
