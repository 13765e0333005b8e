/// The bounds on segments and points a client sends (docs/limits.md), kept beside the rest of
/// the edge's numbers so every path that accepts them checks the same ones.
public enum SegmentLimits {
    /// The most segments one activity carries.
    public static let maxSegments = 12
    /// The most points one activity carries.
    public static let maxPoints = 16
    /// The most characters (grapheme clusters, what a reader counts) of one segment or point label.
    public static let labelCharacters = 64
    /// The most code points of one label: 64 characters could otherwise carry thousands
    /// (a letter with 30 combining marks is one character). Four per character on average
    /// leaves room for flags, ZWJ emoji sequences and accented letters.
    public static let labelCodePoints = 256
    /// How far the shares a client gives may sum from 1 (three thirds of 0.333 pass).
    public static let shareTolerance = 0.005
}
