/// The one rounding rule for every percentage the product shows (card body, card progress
/// hint and text bar, compact view, `liveactivity get`, `watch --format waybar`, the KDE job):
/// the whole percent rounded DOWN, clamped to 0...100, so 100% appears only when the activity
/// is done (as iOS progress views do). A tiny tolerance keeps 0.29 * 100 = 28.999… at 29.
public enum ShownPercent {
    /// The whole percent shown for a progress `fraction` (0...1); 0 for NaN.
    public static func of(_ fraction: Double) -> Int {
        guard !fraction.isNaN else { return 0 }
        return Int((min(max(fraction, 0), 1) * 100 + 1e-9).rounded(.down))
    }
}
