/// The names of DESIGN.md's contract, in one place: the daemon serves them, the CLI, the
/// benchmark and the tests call them.
public enum BusNames {
    public static let busName = "io.github.liveactivities.LiveActivities1"
    public static let managerInterface = "io.github.liveactivities.LiveActivities1"
    public static let managerPath = "/io/github/liveactivities/LiveActivities1"
    public static let activityInterface = "io.github.liveactivities.LiveActivities1.Activity"
    public static let errorPrefix = "io.github.liveactivities.LiveActivities1.Error."

    /// The object path of the activity with `id` (ids are `[A-Za-z0-9_]`, valid path elements).
    public static func activityPath(_ id: String) -> String { "\(managerPath)/activity/\(id)" }
}
