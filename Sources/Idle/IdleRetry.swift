/// When a source asks again after a reading that was not one (a timeout, an error, garbage):
/// after `first` seconds (30, never sooner), doubling up to `longest`; a good reading starts
/// over. Only the first failure of a run is logged, and the recovery.
package struct IdleRetry {
    /// The wait after the first failure, in seconds.
    var first = 30.0
    /// The longest wait between two tries, in seconds.
    var longest = 300.0
    private(set) var failures = 0

    init(first: Double = 30, longest: Double = 300) {
        self.first = first
        self.longest = longest
    }

    /// Counts a failure; returns the seconds to wait and whether to log it (the first of a run).
    mutating func failed() -> (after: Double, log: Bool) {
        failures += 1
        let wait = min(longest, first * Double(1 << min(failures - 1, 16)))
        return (wait, failures == 1)
    }

    /// Counts a good reading; returns whether it ends a run of failures (worth a log line).
    mutating func succeeded() -> Bool {
        defer { failures = 0 }
        return failures > 0
    }
}
