import CMosquitto
import Glibc

/// libmosquitto's functions, loaded with `dlopen` the first time a client is made. The daemon
/// does not link the library (nor the OpenSSL it pulls in), so with push off it costs no
/// memory and no start-up time; with push on and the library missing, the client reports it.
/// Each field is the C function of the same name (`mosquitto_connect` → `connect`).
struct MosquittoLibrary {
    typealias Handle = OpaquePointer
    typealias ConnectCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?, Int32, Int32) -> Void
    typealias CodeCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?, Int32) -> Void
    typealias SubscribeCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?, Int32, Int32, UnsafePointer<Int32>?) -> Void
    typealias MessageCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?, UnsafePointer<mosquitto_message>?) -> Void
    typealias LogCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?) -> Void
    typealias PasswordCallback = @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias TopicList = UnsafePointer<UnsafeMutablePointer<CChar>?>?

    let libInit: @convention(c) () -> Int32
    let new: @convention(c) (UnsafePointer<CChar>?, Bool, UnsafeMutableRawPointer?) -> Handle?
    let threadedSet: @convention(c) (Handle?, Bool) -> Int32
    let intOption: @convention(c) (Handle?, mosq_opt_t, Int32) -> Int32
    let usernamePasswordSet: @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let tlsSet: @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                                UnsafePointer<CChar>?, PasswordCallback?) -> Int32
    let userDataSet: @convention(c) (Handle?, UnsafeMutableRawPointer?) -> Void
    let connectWithFlagsCallbackSet: @convention(c) (Handle?, ConnectCallback?) -> Void
    let disconnectCallbackSet: @convention(c) (Handle?, CodeCallback?) -> Void
    let subscribeCallbackSet: @convention(c) (Handle?, SubscribeCallback?) -> Void
    let messageCallbackSet: @convention(c) (Handle?, MessageCallback?) -> Void
    let publishCallbackSet: @convention(c) (Handle?, CodeCallback?) -> Void
    let logCallbackSet: @convention(c) (Handle?, LogCallback?) -> Void
    let connect: @convention(c) (Handle?, UnsafePointer<CChar>?, Int32, Int32) -> Int32
    let loop: @convention(c) (Handle?, Int32, Int32) -> Int32
    let disconnect: @convention(c) (Handle?) -> Int32
    let subscribeMultiple: @convention(c) (Handle?, UnsafeMutablePointer<Int32>?, Int32, TopicList, Int32, Int32, OpaquePointer?) -> Int32
    let unsubscribeMultiple: @convention(c) (Handle?, UnsafeMutablePointer<Int32>?, Int32, TopicList, OpaquePointer?) -> Int32
    let publish: @convention(c) (Handle?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32
    let strerror: @convention(c) (Int32) -> UnsafePointer<CChar>?
    let connackString: @convention(c) (Int32) -> UnsafePointer<CChar>?

    /// The library, loaded and initialised once per process; an error says why not.
    static let shared: Result<MosquittoLibrary, MQTTError> = {
        do throws(MQTTError) {
            let library = try MosquittoLibrary(path: "libmosquitto.so.1")
            guard library.libInit() == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
                return .failure(MQTTError(message: "libmosquitto could not be initialised"))
            }
            return .success(library)
        } catch {
            return .failure(error)
        }
    }()

    private init(path: String) throws(MQTTError) {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw MQTTError(message: "cannot load \(path) (install libmosquitto1): \(Self.dlError())")
        }
        func load<F>(_ name: String) throws(MQTTError) -> F {
            guard let symbol = dlsym(handle, name) else { throw MQTTError(message: "\(path) has no \(name): \(Self.dlError())") }
            return unsafeBitCast(symbol, to: F.self)
        }
        libInit = try load("mosquitto_lib_init")
        new = try load("mosquitto_new")
        threadedSet = try load("mosquitto_threaded_set")
        intOption = try load("mosquitto_int_option")
        usernamePasswordSet = try load("mosquitto_username_pw_set")
        tlsSet = try load("mosquitto_tls_set")
        userDataSet = try load("mosquitto_user_data_set")
        connectWithFlagsCallbackSet = try load("mosquitto_connect_with_flags_callback_set")
        disconnectCallbackSet = try load("mosquitto_disconnect_callback_set")
        subscribeCallbackSet = try load("mosquitto_subscribe_callback_set")
        messageCallbackSet = try load("mosquitto_message_callback_set")
        publishCallbackSet = try load("mosquitto_publish_callback_set")
        logCallbackSet = try load("mosquitto_log_callback_set")
        connect = try load("mosquitto_connect")
        loop = try load("mosquitto_loop")
        disconnect = try load("mosquitto_disconnect")
        subscribeMultiple = try load("mosquitto_subscribe_multiple")
        unsubscribeMultiple = try load("mosquitto_unsubscribe_multiple")
        publish = try load("mosquitto_publish")
        strerror = try load("mosquitto_strerror")
        connackString = try load("mosquitto_connack_string")
    }

    private static func dlError() -> String { dlerror().map { String(cString: $0) } ?? "unknown error" }

    /// libmosquitto's text for an error code; for a system error, the errno text.
    func describe(_ rc: Int32) -> String {
        if rc == Int32(MOSQ_ERR_ERRNO.rawValue) { return String(cString: Glibc.strerror(errno)) }
        return strerror(rc).map { String(cString: $0) } ?? "error \(rc)"
    }
}
