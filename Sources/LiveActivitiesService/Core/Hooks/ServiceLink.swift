/// The service as the hooks it hands out reach it, held weakly and set once `init` is done. It
/// exists so that the publisher, push, focus and `Durability` can be built in `init` (their
/// hooks are made before the service is) and never keep the service alive.
final class ServiceLink {
    weak var service: ActivityService?
}
