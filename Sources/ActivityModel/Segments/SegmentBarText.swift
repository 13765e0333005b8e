/// A segmented bar in text, for cards on servers that draw no `value` hint and for terminals:
/// `▰▰▰▰▰▰▰▰▰▰▱▱▱│▱▱▱▱▱▱▱`, each segment as many cells as its share (at least one), a `│`
/// between segments, cells filled as far as the activity has come.
public enum SegmentBarText {
    /// The bar in about `cells` cells (more when there are more segments than cells).
    public static func bar(_ segmented: SegmentedProgress, cells: Int = 20) -> String {
        let counts = cellCounts(shares: segmented.segments.map(\.share), cells: cells)
        return zip(segmented.segments, counts).map { segment, count in
            let filled = min(count, Int((unit(segment.fill) * Double(count) + 1e-9).rounded(.down)))
            return String(repeating: "▰", count: filled) + String(repeating: "▱", count: count - filled)
        }.joined(separator: "│")
    }

    /// Cells per segment: proportional to the shares, at least one each, the remainder going to
    /// the largest fractions, so the counts sum to `cells` whenever every segment fits.
    static func cellCounts(shares: [Double], cells: Int) -> [Int] {
        guard !shares.isEmpty else { return [] }
        let total = max(cells, shares.count)
        let exact = shares.map { unit($0) * Double(total) }
        var counts = exact.map { max(1, Int($0.rounded(.down))) }
        var left = total - counts.reduce(0, +)
        let order = exact.indices.sorted { (exact[$0] - exact[$0].rounded(.down)) > (exact[$1] - exact[$1].rounded(.down)) }
        var cursor = 0
        while left > 0 {
            counts[order[cursor % order.count]] += 1
            left -= 1
            cursor += 1
        }
        while left < 0, let widest = counts.indices.max(by: { counts[$0] < counts[$1] }), counts[widest] > 1 {
            counts[widest] -= 1
            left += 1
        }
        return counts
    }

    /// A share or fill as drawn, 0...1: the bar also draws values read from the bus (the CLI's
    /// `watch`), where NaN, infinite or negative ones would trap the `Int` conversion or give a
    /// negative repeat count.
    private static func unit(_ value: Double) -> Double {
        value.isFinite ? min(max(value, 0), 1) : 0
    }
}
