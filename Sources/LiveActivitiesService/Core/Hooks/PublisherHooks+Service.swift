/// How the publisher's own timers reach the core (`PublisherHooks`): a paced round or settling
/// runs the core's, an object's read takes the moment of the report being read, and an alert
/// takes the desktop's quiet into account (`FocusCoordinator.quietAware`).
extension PublisherHooks {
    /// The closures the publisher asks `link`'s service through (held weakly), reading at the
    /// moment `scopedReads` holds while a report is read.
    init(serving link: ServiceLink, scopedReads: ScopedReads) {
        self.init(currentView: { [link, scopedReads] in link.service.map { scopedReads.view ?? $0.readView() } },
                  settleDue: { [link] in
                      guard let service = link.service else { return }
                      service.settle(in: service.readView())
                  },
                  alertStyle: { [link] alert in link.service?.focus.quietAware(alert) ?? alert })
    }
}
