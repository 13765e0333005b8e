/// The bounds on segments and points a client sends (docs/limits.md), kept beside the rest of
/// the edge's numbers so every path that accepts them checks the same ones.
public enum SegmentLimits {
    /// The most segments one activity carries.
    public static let maxSegments = 12
    /// The most points one activity carries.
    public static let maxPoints = 16
    /// The most characters of one segment or point label.
    public static let labelCharacters = 64
    /// How far the shares a client gives may sum from 1 (three thirds of 0.333 pass).
    public static let shareTolerance = 0.005
}
