import ActivityModel
import DBus

/// How push reaches the core (`PushHooks`): a message becomes the same Start, Update and End
/// as a bus call, and a confirmed token re-reads its activity's object.
extension PushHooks {
    /// The closures push asks `link`'s service through (held weakly).
    init(serving link: ServiceLink) {
        self.init(start: { [link] request throws(DBusError) in
                      guard let service = link.service else {
                          throw .failed("the service is gone")
                      }
                      return try service.start(request)
                  },
                  update: { [link] id, request throws(DBusError) in try link.service?.update(id: id, request) },
                  end: { [link] id, request throws(DBusError) in try link.service?.end(id: id, request) },
                  kindNames: { [link] in link.service?.kindNames ?? [] },
                  limits: { [link] in link.service?.limits ?? Limits() },
                  holdsPlace: { [link] id in link.service?.registry.activity(id)?.status.holdsPlace ?? false },
                  emit: { [link] name, body in link.service?.publisher.emit(name, body) },
                  tokenAnnounced: { [link] id in
                      guard let service = link.service else { return }
                      service.publisher.refresh(id, alert: nil, in: service.readView())
                  })
    }
}
