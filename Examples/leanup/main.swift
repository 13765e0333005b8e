import LiveActivityKit

// LeanUp on Linux: the iOS app's fasting Live Activity with `import LiveActivityKit`.
//
//   leanup start 16:8|18:6|OMAD [--hours-ago H]   start a fast (optionally begun H hours ago) and keep it updated
//   leanup resume                                 keep the running fast updated (after a restart)
//   leanup status                                 show the running fast
//   leanup end                                    end the fast (completed once the goal is reached)
//
// While it runs, the state is updated each minute (`--interval S` to change) until the eating
// window closes, 24 h after the start; `--for S` stops updating after S seconds and leaves the fast running.

let usage = "Usage: leanup start 16:8|18:6|OMAD [--hours-ago H] [--interval S] [--for S] | resume | status | end"

func option(_ name: String, in arguments: [String]) -> Double? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return Double(arguments[index + 1])
}

func runningFast() -> Activity<FastingActivityAttributes>? {
    Activity<FastingActivityAttributes>.activities.first { $0.activityState == .active || $0.activityState == .stale }
}

func describe(_ activity: Activity<FastingActivityAttributes>) -> String {
    let state = activity.content.state
    let hours = state.elapsedSeconds / 3600, minutes = state.elapsedSeconds / 60 % 60
    let phase = state.isEatingWindow ? "eating window" : "fasting"
    return "\(activity.attributes.protocolName) fast: \(hours)h \(minutes)m, \(Int(state.progress * 100))% (\(phase)), activity \(activity.id)"
}

/// Updates the fast every `interval` seconds until the eating window closes (then ends it) or `limit` passes.
func keepUpdated(_ activity: Activity<FastingActivityAttributes>, interval: Double, limit: Double?) async {
    let attributes = activity.attributes
    let stop = limit.map { Date().addingTimeInterval($0) }
    let windowCloses = attributes.startTime.addingTimeInterval(24 * 3600)
    var wasEating = activity.content.state.isEatingWindow
    while true {
        let now = Date()
        let state = FastingActivityAttributes.ContentState(hours: attributes.fastingHours, start: attributes.startTime, now: now)
        if now >= windowCloses {
            await activity.end(ActivityContent(state: state, staleDate: nil), dismissalPolicy: .default, reason: .completed)
            print("Eating window closed: fast completed.")
            return
        }
        let alert = state.isEatingWindow && !wasEating
            ? AlertConfiguration(title: "Fasting goal reached", body: "Your eating window is open.", sound: .default) : nil
        await activity.update(ActivityContent(state: state, staleDate: nil), alertConfiguration: alert)
        wasEating = state.isEatingWindow
        print(describe(activity))
        if let stop, now >= stop { return }
        try? await Task.sleep(nanoseconds: UInt64(max(0.05, interval) * 1e9))
        if activity.activityState != .active && activity.activityState != .stale {
            print("The fast was ended elsewhere.")
            return
        }
    }
}

func start(_ arguments: [String]) async -> Int32 {
    guard let name = arguments.first, let plan = FastingProtocol(argument: name) else {
        print(usage)
        return 2
    }
    if let running = runningFast() {
        print("A fast is already running: \(describe(running))")
        return 1
    }
    do { try ActivityKindFile.install(FastingKindFile.json, for: FastingActivityAttributes.self) } catch {
        print("leanup: could not install the kind file (\(error)); the card shows the plain layout")
    }
    let start = Date().addingTimeInterval(-(option("--hours-ago", in: arguments) ?? 0) * 3600)
    let attributes = FastingActivityAttributes(fastingHours: plan.fastingHours, startTime: start, protocolName: plan.rawValue)
    let state = FastingActivityAttributes.ContentState(hours: plan.fastingHours, start: start, now: Date())
    let activity: Activity<FastingActivityAttributes>
    do {
        activity = try Activity<FastingActivityAttributes>.request(attributes: attributes,
                                                                   content: ActivityContent(state: state, staleDate: nil), pushType: nil)
    } catch {
        print("Could not start the fast: \(error)")
        return 1
    }
    print("Started: \(describe(activity))")
    await keepUpdated(activity, interval: option("--interval", in: arguments) ?? 60, limit: option("--for", in: arguments))
    return 0
}

func resume(_ arguments: [String]) async -> Int32 {
    guard let activity = runningFast() else {
        print("No fast is running.")
        return 1
    }
    print("Resumed: \(describe(activity))")
    await keepUpdated(activity, interval: option("--interval", in: arguments) ?? 60, limit: option("--for", in: arguments))
    return 0
}

func end() async -> Int32 {
    guard let activity = runningFast() else {
        print("No fast is running.")
        return 1
    }
    let attributes = activity.attributes
    let state = FastingActivityAttributes.ContentState(hours: attributes.fastingHours, start: attributes.startTime, now: Date())
    await activity.end(ActivityContent(state: state, staleDate: nil), dismissalPolicy: .default,
                       reason: state.isEatingWindow ? .completed : .cancelled)
    print("Fast ended: \(describe(activity))")
    return 0
}

let arguments = Array(CommandLine.arguments.dropFirst())
let code: Int32
switch arguments.first ?? "status" {
case "start": code = await start(Array(arguments.dropFirst()))
case "resume": code = await resume(arguments)
case "end": code = await end()
case "status":
    print(runningFast().map(describe) ?? "No fast is running.")
    code = 0
default:
    print(usage)
    code = arguments.first == "--help" || arguments.first == "-h" ? 0 : 2
}
exit(code)
