// LiveActivityKit: ActivityKit's API on Linux, over liveactivityd's D-Bus interface.
//
// iOS files that say `import ActivityKit` use `Date`, `UUID` and `TimeInterval` without
// importing Foundation themselves; re-exporting it lets them port by changing the import alone.
@_exported import Foundation
