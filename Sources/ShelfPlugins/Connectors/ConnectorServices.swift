import ShelfCore
import Foundation
import PluginAPI
import Synchronization

/// The host services of http.h and credentials.h that connectors find through `shelf_host.get_service`:
/// "shelf.host.http/1" (one request over the host's HTTPClient) and "shelf.host.credentials/1" and "/2"
/// (secrets in the credential store, under a key namespaced by the plugin's id and, for /2, the service).
public enum ConnectorServices {
    /// The client and the secrets' folder, read by plugin calls on any thread and replaced by tests: under a mutex.
    private static let settings = Mutex<
        (client: HTTPClient, credentialDirectories: ShelfDirectories?, detour: ConnectorDetour?)
    >(
        (
            client: {
                var configuration = HTTPClient.Configuration()
                configuration.requestTimeout = 60
                configuration.retry = .init(maxAttempts: 3, initialDelay: 0.5, maxDelay: 10, maxTotalWait: 30)
                return HTTPClient(configuration: configuration)
            }(), credentialDirectories: nil, detour: nil
        ))

    /// The client every plugin request goes through; tests and the CLI may replace it.
    public static var client: HTTPClient {
        get { settings.withLock { $0.client } }
        set { settings.withLock { $0.client = newValue } }
    }

    /// Where the secrets of plugins loaded outside a `Shelf` (conformance, tests) are kept; nil means the process's
    /// config folder. A Shelf's plugins keep theirs in the Shelf's own store.
    public static var credentialDirectories: ShelfDirectories? {
        get { settings.withLock { $0.credentialDirectories } }
        set { settings.withLock { $0.credentialDirectories = newValue } }
    }

    /// Where the connector checks of `shelf conformance` send every plugin request instead (see ConnectorDetour).
    static var detour: ConnectorDetour? {
        get { settings.withLock { $0.detour } }
        set { settings.withLock { $0.detour = newValue } }
    }

    static func service(_ id: String) -> UnsafeRawPointer? {
        switch id {
        case SHELF_HOST_HTTP: return UnsafeRawPointer(http)
        case SHELF_HOST_CREDENTIALS: return UnsafeRawPointer(credentials)
        case SHELF_HOST_CREDENTIALS_2: return UnsafeRawPointer(serviceCredentials)
        default: return nil
        }
    }

    /// The credentials-file key for a plugin's own key: plugins never see each other's secrets. A service's keys
    /// (credentials/2) have a namespace of their own; a /1 key has no ':', so the two never meet.
    public static func storeKey(pluginID: String, service: String? = nil, key: String) -> String {
        service.map { "plugin:\(pluginID):service:\($0):\(key)" } ?? "plugin:\(pluginID):\(key)"
    }

    static func validKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= 128
            && key.unicodeScalars.allSatisfy {
                ($0.isASCII && (CharacterSet.alphanumerics.contains($0))) || "._-".unicodeScalars.contains($0)
            }
    }

    /// Set by `shelf conformance` (and tests): secrets stay in the credentials file of `credentialDirectories`, never in
    /// the desktop's keyring, so scratch secrets leave nothing behind.
    static let keepsSecretsInFile = Atomic<Bool>(false)

    static func store() throws -> CredentialStore {
        // No Shelf loaded the plugin (a test's or a benchmark's own loading; conformance sets a scratch folder), so
        // there is no Shelf's environment to follow: the process's is the only one.
        let environment = ProcessEnvironment.shared
        if let credentialDirectories {
            return CredentialStore(
                directories: credentialDirectories,
                environment: keepsSecretsInFile.load(ordering: .relaxed) ? ["SHELF_SECRET_SERVICE": "off"] : environment
            )
        }
        return CredentialStore(directories: try ShelfDirectories(environment: environment), environment: environment)
    }

    /// Reads a plugin secret (the host side of `get`) from `store` (a `Shelf`'s), or from the services' own.
    public static func secret(pluginID: String, service: String? = nil, key: String, in store: CredentialStore? = nil)
        throws -> String?
    {
        try (store ?? self.store()).credential(for: storeKey(pluginID: pluginID, service: service, key: key))?.token
    }

    /// Stores (nil: removes) a plugin secret in `store` (a `Shelf`'s), or in the services' own.
    public static func setSecret(
        _ value: String?, pluginID: String, service: String? = nil, key: String,
        in store: CredentialStore? = nil
    ) throws {
        let k = storeKey(pluginID: pluginID, service: service, key: key)
        let store = try store ?? self.store()
        if let value {
            try store.save(Credential(flow: SHELF_HOST_CREDENTIALS, token: value), for: k)
        } else {
            try store.remove(for: k)
        }
    }

    static func fail(_ err: UnsafeMutablePointer<shelf_error>?, _ status: shelf_status, _ message: String)
        -> shelf_status
    {
        guard let err else { return status }
        err.pointee.status = status
        withUnsafeMutableBytes(of: &err.pointee.message) { buffer in
            var bytes = Array(message.utf8.prefix(buffer.count - 1))
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
            if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return status
    }

    static func write(_ data: Data, _ writer: UnsafePointer<shelf_writer>?) -> shelf_status {
        guard let writer, let write = writer.pointee.write else { return SHELF_OK }
        if data.isEmpty { return SHELF_OK }
        return data.withUnsafeBytes { write(writer.pointee.context, $0.baseAddress, $0.count) }
    }

    // C tables made once and only read afterwards, so sharing the pointers between threads is safe (Swift cannot
    // know that of a C pointer).
    nonisolated(unsafe) static let http: UnsafeMutablePointer<shelf_host_http_v1> = {
        let table = UnsafeMutablePointer<shelf_host_http_v1>.allocate(capacity: 1)
        table.initialize(
            to: shelf_host_http_v1(
                struct_size: UInt32(MemoryLayout<shelf_host_http_v1>.size),
                send: { host, request, status, headers, body, err in
                    ConnectorServices.send(host, request, status, headers, body, err)
                }))
        return table
    }()

    static func send(
        _ host: UnsafePointer<shelf_host>?, _ request: UnsafePointer<shelf_http_request>?,
        _ status: UnsafeMutablePointer<Int32>?, _ headers: UnsafePointer<shelf_writer>?,
        _ body: UnsafePointer<shelf_writer>?, _ err: UnsafeMutablePointer<shelf_error>?
    ) -> shelf_status {
        guard host != nil, let request, let status else {
            return fail(err, SHELF_E_INVALID_ARGUMENT, "send needs a host, a request and a status")
        }
        status.pointee = 0
        let minimum = MemoryLayout<shelf_http_request>.offset(of: \shelf_http_request.timeout_ms)!
        guard Int(request.pointee.struct_size) >= minimum else {
            return fail(
                err, SHELF_E_INVALID_ARGUMENT,
                "the shelf_http_request is too short (struct_size \(request.pointee.struct_size))")
        }
        let r = request.pointee
        guard let cMethod = r.method, let method = HTTPMethod(rawValue: String(cString: cMethod).uppercased()) else {
            return fail(err, SHELF_E_INVALID_ARGUMENT, "the request's method must be GET, HEAD, POST, PUT or DELETE")
        }
        guard let cURL = r.url, let url = URL(string: String(cString: cURL)) else {
            return fail(err, SHELF_E_INVALID_ARGUMENT, "the request's url is missing or malformed")
        }
        var fields = HTTPHeaders()
        if var list = r.headers {
            var count = 0
            while let line = list.pointee {
                count += 1
                guard count <= 256 else { return fail(err, SHELF_E_LIMIT, "more than 256 request headers") }
                let text = String(cString: line)
                guard let colon = text.firstIndex(of: ":") else {
                    return fail(err, SHELF_E_INVALID_ARGUMENT, "a request header has no colon (\"Name: value\")")
                }
                fields.add(
                    String(text[..<colon]).trimmingCharacters(in: .whitespaces),
                    String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
                list += 1
            }
        }
        var payload: Data?
        if r.body_size > 0 {
            guard let bytes = r.body else { return fail(err, SHELF_E_INVALID_ARGUMENT, "body_size without a body") }
            guard r.body_size <= 64 << 20 else { return fail(err, SHELF_E_LIMIT, "the request body is over 64 MiB") }
            payload = Data(bytes: bytes, count: r.body_size)
        }
        var timeout: TimeInterval?
        if Int(r.struct_size) >= MemoryLayout<shelf_http_request>.offset(of: \shelf_http_request.reserved)!,
            r.timeout_ms > 0
        {
            timeout = TimeInterval(r.timeout_ms) / 1000
        }
        var httpRequest = HTTPRequest(method, url, headers: fields, body: payload, timeout: timeout)
        var client = ConnectorServices.client
        if let detour = ConnectorServices.detour {
            httpRequest = detour.divert(httpRequest)
            client = detour.client
        } else if r.flags & UInt32(SHELF_HTTP_NO_RETRY) != 0 {
            var configuration = client.configuration
            configuration.retry = .none
            client = HTTPClient(configuration: configuration)
        }
        do {
            let call = CallCancellation.current  // the connector's call on this thread, asked from the client's
            let response = try client.send(
                httpRequest, isCancelled: { HostServices.cancelRequested || call?.isCancelled == true })
            status.pointee = Int32(response.status)
            if headers != nil {
                var text = ""
                for field in response.headers { text += "\(field.name): \(field.value)\n" }
                let s = write(Data(text.utf8), headers)
                if s != SHELF_OK { return fail(err, s, "the plugin's header writer refused the headers") }
            }
            let s = write(response.body, body)
            if s != SHELF_OK { return fail(err, s, "the plugin's body writer refused the body") }
            return SHELF_OK
        } catch let error as HTTPError {
            switch error.kind {
            case .cancelled: return fail(err, SHELF_E_CANCELLED, "cancelled")
            case .bodyTooLarge: return fail(err, SHELF_E_LIMIT, error.description)
            case .invalidRequest, .unsupportedScheme: return fail(err, SHELF_E_INVALID_ARGUMENT, error.description)
            default: return fail(err, SHELF_E_IO, error.description)
            }
        } catch {
            return fail(err, SHELF_E_IO, "\(error)")
        }
    }

    nonisolated(unsafe) static let credentials: UnsafeMutablePointer<shelf_host_credentials_v1> = {
        let table = UnsafeMutablePointer<shelf_host_credentials_v1>.allocate(capacity: 1)
        table.initialize(
            to: shelf_host_credentials_v1(
                struct_size: UInt32(MemoryLayout<shelf_host_credentials_v1>.size),
                get: { host, key, out, err in
                    ConnectorServices.credential(host, key, err) { pluginID, k, store in
                        guard let value = try ConnectorServices.secret(pluginID: pluginID, key: k, in: store) else {
                            return ConnectorServices.fail(err, SHELF_E_NOT_FOUND, "no secret is stored under \(k)")
                        }
                        let s = ConnectorServices.write(Data(value.utf8), out)
                        return s == SHELF_OK
                            ? SHELF_OK : ConnectorServices.fail(err, s, "the writer refused the secret")
                    }
                },
                set: { host, key, value, err in
                    ConnectorServices.credential(host, key, err) { pluginID, k, store in
                        guard let value else {
                            return ConnectorServices.fail(err, SHELF_E_INVALID_ARGUMENT, "NULL value")
                        }
                        let text = String(cString: value)
                        guard text.utf8.count <= 64 << 10 else {
                            return ConnectorServices.fail(err, SHELF_E_LIMIT, "a secret is at most 64 KiB")
                        }
                        try ConnectorServices.setSecret(text, pluginID: pluginID, key: k, in: store)
                        return SHELF_OK
                    }
                },
                remove: { host, key, err in
                    ConnectorServices.credential(host, key, err) { pluginID, k, store in
                        try ConnectorServices.setSecret(nil, pluginID: pluginID, key: k, in: store)
                        return SHELF_OK
                    }
                }))
        return table
    }()

    /// credentials/2: the same calls with a service (NULL: the plugin's own keys, as /1).
    nonisolated(unsafe) static let serviceCredentials: UnsafeMutablePointer<shelf_host_credentials_v2> = {
        let table = UnsafeMutablePointer<shelf_host_credentials_v2>.allocate(capacity: 1)
        table.initialize(
            to: shelf_host_credentials_v2(
                struct_size: UInt32(MemoryLayout<shelf_host_credentials_v2>.size),
                get: { host, service, key, out, err in
                    ConnectorServices.credential(host, service, key, err) { pluginID, service, k, store in
                        guard
                            let value = try ConnectorServices.secret(
                                pluginID: pluginID, service: service, key: k, in: store)
                        else {
                            return ConnectorServices.fail(
                                err, SHELF_E_NOT_FOUND,
                                "no secret is stored under \(k)" + (service.map { " for \($0)" } ?? ""))
                        }
                        let s = ConnectorServices.write(Data(value.utf8), out)
                        return s == SHELF_OK
                            ? SHELF_OK : ConnectorServices.fail(err, s, "the writer refused the secret")
                    }
                },
                set: { host, service, key, value, err in
                    ConnectorServices.credential(host, service, key, err) { pluginID, service, k, store in
                        guard let value else {
                            return ConnectorServices.fail(err, SHELF_E_INVALID_ARGUMENT, "NULL value")
                        }
                        let text = String(cString: value)
                        guard text.utf8.count <= 64 << 10 else {
                            return ConnectorServices.fail(err, SHELF_E_LIMIT, "a secret is at most 64 KiB")
                        }
                        try ConnectorServices.setSecret(text, pluginID: pluginID, service: service, key: k, in: store)
                        return SHELF_OK
                    }
                },
                remove: { host, service, key, err in
                    ConnectorServices.credential(host, service, key, err) { pluginID, service, k, store in
                        try ConnectorServices.setSecret(nil, pluginID: pluginID, service: service, key: k, in: store)
                        return SHELF_OK
                    }
                }))
        return table
    }()

    static func credential(
        _ host: UnsafePointer<shelf_host>?, _ service: UnsafePointer<CChar>?, _ key: UnsafePointer<CChar>?,
        _ err: UnsafeMutablePointer<shelf_error>?,
        _ body: (String, String?, String, CredentialStore?) throws -> shelf_status
    ) -> shelf_status {
        let name = service.map { String(cString: $0) }
        if let name, !PluginDescriptor.isValidID(name) {
            return fail(
                err, SHELF_E_INVALID_ARGUMENT,
                "a service id is 1 to 128 characters of a-z 0-9 . _ -, starting with a letter or digit")
        }
        return credential(host, key, err) { pluginID, k, store in try body(pluginID, name, k, store) }
    }

    static func credential(
        _ host: UnsafePointer<shelf_host>?, _ key: UnsafePointer<CChar>?, _ err: UnsafeMutablePointer<shelf_error>?,
        _ body: (String, String, CredentialStore?) throws -> shelf_status
    ) -> shelf_status {
        guard let host, let key else {
            return fail(err, SHELF_E_INVALID_ARGUMENT, "the credentials service needs a host and a key")
        }
        let k = String(cString: key)
        guard validKey(k) else {
            return fail(err, SHELF_E_INVALID_ARGUMENT, "a credential key is 1 to 128 characters of A-Z a-z 0-9 . _ -")
        }
        guard let pluginID = HostServices.pluginID(of: host) else {
            return fail(err, SHELF_E_INVALID_ARGUMENT, "an unknown host pointer")
        }
        do {
            // The plugin's secrets are kept where the Shelf that loaded it keeps them; a plugin loaded outside a
            // registry (conformance, tests) uses the services' own store.
            return try body(pluginID, k, HostServices.credentials(of: host))
        } catch let error as ShelfError {
            return fail(err, SHELF_E_IO, error.message)
        } catch {
            return fail(err, SHELF_E_IO, "the credentials file cannot be used")
        }
    }
}
