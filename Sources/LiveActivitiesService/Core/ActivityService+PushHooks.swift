import ActivityModel
import DBus

/// How push reaches the core (`PushHooks`): a message becomes the same Start, Update and End
/// as a bus call, and a confirmed token re-reads its activity's object.
extension ActivityService {
    /// The closures push asks through (each holds the service weakly).
    var pushHooks: PushHooks {
        PushHooks(start: { [weak self] request throws(DBusError) in
                      guard let self else { throw DBusError(name: "org.freedesktop.DBus.Error.Failed", message: "the service is gone") }
                      return try self.start(request)
                  },
                  update: { [weak self] id, request throws(DBusError) in try self?.update(id: id, request) },
                  end: { [weak self] id, request throws(DBusError) in try self?.end(id: id, request) },
                  kindNames: { [weak self] in self?.kindNames ?? [] },
                  limits: { [weak self] in self?.limits ?? Limits() },
                  holdsPlace: { [weak self] id in self?.registry.activity(id)?.status.holdsPlace ?? false },
                  emit: { [weak self] name, body in self?.publisher.emit(name, body) },
                  tokenAnnounced: { [weak self] id in
                      guard let self else { return }
                      self.publisher.refresh(id, alert: nil, in: self.readView())
                  })
    }

    /// `PushToStartToken(kind)`: the kind files are read again first when `kind` is unknown.
    func pushToStartToken(kind: String) throws(DBusError) -> String {
        reloadKindsIfUnknown(kind)
        return try push.startToken(kind: kind)
    }
}
