/// Double-to-integer conversions that cannot trap. Swift's `Int64(_: Double)` stops the
/// process for NaN, infinities and anything past ±9.2e18; every conversion of a number that
/// came from outside goes through these instead, so a hostile value is clamped, never fatal.
extension Int64 {
    /// `value` rounded toward zero, clamped to `Int64.min...Int64.max`; NaN becomes 0.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_807.0 {
            self = .max
        } else if value <= -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int64(value)
        }
    }
}

extension Int {
    /// `value` rounded toward zero, clamped to `Int.min...Int.max`; NaN becomes 0.
    public init(saturating value: Double) {
        self = Int(truncatingIfNeeded: Int64(saturating: value))
    }
}
