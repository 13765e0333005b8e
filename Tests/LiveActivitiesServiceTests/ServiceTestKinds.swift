import ActivityModel
import Foundation
import LiveActivitiesService

/// The shipped kinds (`data/kinds`), found from this source file, for the service's tests.
enum ServiceTestKinds {
    static let directory: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/kinds").path

    static let catalog = KindCatalog.load(directories: [directory])
}
