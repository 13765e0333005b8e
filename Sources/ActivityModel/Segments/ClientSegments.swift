/// The segments and points a client gives for its activity in four state keys, so they work the
/// same from busctl, the CLI and LiveActivityKit (state values are scalars):
///
/// | key | example | meaning |
/// | --- | --- | --- |
/// | `steps` | `5` | that many equal segments, "Step 1" … "Step 5" |
/// | `segments` | `"Fetch:0.2\|Build:0.5\|Test:0.3"` | labels, each with its share of the whole (all or none; none: equal) |
/// | `step` | `2` | the current segment, from 1 (without it the current one follows `progress`) |
/// | `points` | `"0.5:Half way\|0.9"` | marks on the bar: position 0…1, then an optional label |
///
/// Checked whenever state is accepted (Start, Update, End, a scheduled or pushed update) and
/// when a saved record is restored; a bad value is `InvalidArgs` and changes nothing.
public struct ClientSegments: Equatable, Sendable {
    /// One declared segment: its label and share of the whole.
    public struct Part: Equatable, Sendable {
        public var label: String
        public var share: Double
    }

    public var parts: [Part]
    /// The current segment, from 1; nil: the one the progress is in.
    public var step: Int?
    public var points: [ActivityPoint]

    /// The state keys read here.
    public static let keys = ["segments", "steps", "step", "points"]

    /// What `state` declares, nil when it names no segments (or sets `segments` to "").
    public static func read(from state: [String: Value]) throws(ActivityError) -> ClientSegments? {
        let parts = try partsFromState(state)
        let step = try integer(state["step"], key: "step", range: 1...SegmentLimits.maxSegments)
        let points = try pointsFromState(state)
        guard !parts.isEmpty else {
            if step != nil || !points.isEmpty {
                throw .invalidArgument("state key \(step != nil ? "\"step\"" : "\"points\""): needs segments; "
                                       + "give \"steps\" (a count) or \"segments\" (labels) too")
            }
            return nil
        }
        if let step, step > parts.count {
            throw .invalidArgument("state key \"step\": expected a step from 1 to \(parts.count), got integer \(step)")
        }
        return ClientSegments(parts: parts, step: step, points: points)
    }

    /// Why `state` holds segments that cannot be used (a damaged saved record), or nil.
    public static func problem(in state: [String: Value]) -> String? {
        do throws(ActivityError) {
            _ = try read(from: state)
            return nil
        } catch {
            return error.message
        }
    }

    private static func partsFromState(_ state: [String: Value]) throws(ActivityError) -> [Part] {
        let count = try integer(state["steps"], key: "steps", range: 1...SegmentLimits.maxSegments)
        let listed = try text(state["segments"], key: "segments")
        if let listed, !listed.isEmpty {
            guard count == nil else {
                throw .invalidArgument("state keys \"segments\" and \"steps\" both given; give only one of them")
            }
            return try parseParts(listed)
        }
        guard let count else { return [] }
        return (1...count).map { Part(label: "Step \($0)", share: 1 / Double(count)) }
    }

    /// `label[:share]` items separated by `|`.
    private static func parseParts(_ listed: String) throws(ActivityError) -> [Part] {
        let items = listed.split(separator: "|", omittingEmptySubsequences: false).map { String($0) }
        guard items.count <= SegmentLimits.maxSegments else {
            throw .invalidArgument("state key \"segments\": \(items.count) segments; expected at most \(SegmentLimits.maxSegments)")
        }
        var labels: [String] = []
        var shares: [Double?] = []
        for (index, item) in items.enumerated() {
            let role = "state key \"segments\": segment \(index + 1)"
            var label = item.trimmingSpaces
            var share: Double?
            if let colon = label.lastIndex(of: ":"), let number = Double(String(label[label.index(after: colon)...]).trimmingSpaces) {
                share = number
                label = String(label[..<colon]).trimmingSpaces
            }
            try checkLabel(label, role: role, required: true)
            if let share, !(share.isFinite && share > 0 && share <= 1) {
                throw .invalidArgument("\(role) \(Quoted.text(item)): expected a share above 0 and at most 1, got \(Value.plainNumber(share))")
            }
            labels.append(label)
            shares.append(share)
        }
        let given = shares.compactMap { $0 }
        if given.isEmpty {
            return labels.map { Part(label: $0, share: 1 / Double(labels.count)) }
        }
        guard given.count == labels.count else {
            throw .invalidArgument("state key \"segments\": give a share to every segment or to none "
                                   + "(\(given.count) of \(labels.count) have one), e.g. \"Fetch:0.2|Build:0.8\"")
        }
        let sum = given.reduce(0, +)
        guard abs(sum - 1) <= SegmentLimits.shareTolerance else {
            throw .invalidArgument("state key \"segments\": the shares sum to \(Value.plainNumber(sum)); expected 1")
        }
        return zip(labels, given).map { Part(label: $0, share: $1 / sum) }
    }

    /// `position[:label]` items separated by `|`.
    private static func pointsFromState(_ state: [String: Value]) throws(ActivityError) -> [ActivityPoint] {
        guard let listed = try text(state["points"], key: "points"), !listed.isEmpty else { return [] }
        let items = listed.split(separator: "|", omittingEmptySubsequences: false).map { String($0) }
        guard items.count <= SegmentLimits.maxPoints else {
            throw .invalidArgument("state key \"points\": \(items.count) points; expected at most \(SegmentLimits.maxPoints)")
        }
        var points: [ActivityPoint] = []
        for (index, item) in items.enumerated() {
            let role = "state key \"points\": point \(index + 1)"
            let pieces = item.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let positionText = String(pieces[0]).trimmingSpaces
            guard let position = Double(positionText), position.isFinite, position >= 0, position <= 1 else {
                throw .invalidArgument("\(role) \(Quoted.text(item)): expected a position from 0 to 1, then an optional "
                                       + "\":label\", e.g. \"0.5:Half way\"")
            }
            let label = pieces.count > 1 ? String(pieces[1]).trimmingSpaces : ""
            try checkLabel(label, role: role, required: false)
            points.append(ActivityPoint(position: position, label: label))
        }
        return points.sorted { $0.position < $1.position }
    }

    private static func checkLabel(_ label: String, role: String, required: Bool) throws(ActivityError) {
        if required, label.isEmpty {
            throw .invalidArgument("\(role): the label is empty; expected text such as \"Build\"")
        }
        guard label.count <= SegmentLimits.labelCharacters else {
            throw .invalidArgument("\(role): the label \(Quoted.text(label)) is longer than \(SegmentLimits.labelCharacters) characters")
        }
        let codePoints = label.unicodeScalars.count
        guard codePoints <= SegmentLimits.labelCodePoints else {
            throw .invalidArgument("\(role): the label holds \(codePoints) code points (\(label.count) "
                                   + "\(label.count == 1 ? "character" : "characters")); expected at most \(SegmentLimits.labelCodePoints)")
        }
        if let problem = BusText.problem(label, role: role) { throw .invalidArgument(problem) }
        if !label.isEmpty, !VisibleText.hasVisibleCharacter(label) {
            throw .invalidArgument("\(role): the label holds no visible character (\(VisibleText.codePoints(label))); "
                                   + "expected text such as \"Build\"")
        }
    }

    private static func text(_ value: Value?, key: String) throws(ActivityError) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            throw .invalidArgument("state key \(Quoted.text(key)): expected a string, got \(value.typeDescription)")
        }
        return text
    }

    private static func integer(_ value: Value?, key: String, range: ClosedRange<Int>) throws(ActivityError) -> Int? {
        guard let value else { return nil }
        if let number = value.number, number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound) {
            return Int(number)
        }
        throw .invalidArgument("state key \(Quoted.text(key)): expected an integer from \(range.lowerBound) to \(range.upperBound), "
                               + "got \(value.typeDescription)")
    }
}
