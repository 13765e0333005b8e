// The tests' helpers live in `DaemonHarness` (Sources/), which the benchmark shares; this
// target re-exports it with the contract's names, so tests keep `import TestSupport`.
@_exported import DaemonHarness
@_exported import LiveActivitiesContract
