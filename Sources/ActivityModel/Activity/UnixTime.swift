/// A point in time as unix seconds; the model never reads the clock, callers pass it in.
public typealias UnixTime = Double
