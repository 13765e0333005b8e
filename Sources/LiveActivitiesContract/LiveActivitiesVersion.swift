/// The version of the daemon and the CLI (the `Version` property, `liveactivityd --version`,
/// `liveactivity --version`), defined once so the two can never disagree.
public enum LiveActivitiesVersion {
    public static let current = "0.1.0"
}
