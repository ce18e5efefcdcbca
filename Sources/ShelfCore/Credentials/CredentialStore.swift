import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// What shelf keeps to sign a patron in. Never printed, never logged: `description` hides the secrets.
public struct Credential: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The flow type URI from the authentication document.
    public var flow: String
    public var username: String?
    public var password: String?
    /// A bearer token (Palace basic-token, OAuth).
    public var token: String?
    public var tokenExpires: Date?
    /// "secret-service" when the password and token are kept in the desktop's Secret Service, not in the file.
    public var secretsIn: String?

    public init(
        flow: String, username: String? = nil, password: String? = nil, token: String? = nil,
        tokenExpires: Date? = nil
    ) {
        self.flow = flow
        self.username = username
        self.password = password
        self.token = token
        self.tokenExpires = tokenExpires
    }

    public var hasUsableToken: Bool {
        guard token != nil else { return false }
        return tokenExpires.map { $0.timeIntervalSinceNow > 30 } ?? true
    }

    public var description: String {
        "Credential(\(flow), user: \(username == nil ? "none" : "set"), password: \(password == nil ? "none" : "***"), "
            + "token: \(token == nil ? "none" : "***"))"
    }
}

/// Where shelf keeps what signs a patron in. Passwords and tokens go to the desktop's Secret Service (GNOME Keyring,
/// KWallet) where one is on the session bus; the rest, and everything where there is none, goes to
/// `config/credentials.json`, mode 0600 in a 0700 folder, written whole to a new file and renamed into place under
/// a lock, so two shelf processes never leave half a file or lose each other's change.
public struct CredentialStore: Sendable {
    public let file: URL
    let secretService: SecretService?

    public typealias Place = CredentialPlace

    static let keptInSecretService = "secret-service"

    public init(directories: ShelfDirectories, environment: [String: String]) {
        file = directories.config.appendingPathComponent("credentials.json")
        secretService = SecretService(home: directories.config.path, environment: environment)
    }

    public func credential(for accountID: String) throws -> Credential? {
        guard var credential = try load()[accountID] else { return nil }
        if credential.secretsIn == Self.keptInSecretService {
            // Without the service now (another session, the keyring gone) the credential has no secrets: the
            // library then asks the patron to sign in again, which stores them anew.
            credential.password = try? secretService?.lookup(account: accountID, field: "password")
            // As above.
            credential.token = try? secretService?.lookup(account: accountID, field: "token")
        }
        return credential
    }

    /// Stores the credential; its password and token in the Secret Service when one takes them, else in the file.
    @discardableResult
    public func save(_ credential: Credential, for accountID: String) throws -> Place {
        var kept = credential
        kept.secretsIn = nil
        // A service that refuses them is no place for them: they go to the file (mode 0600), and `place` says so.
        if let secretService, (try? keep(credential, for: accountID, in: secretService)) != nil {
            kept.password = nil
            kept.token = nil
            kept.secretsIn = Self.keptInSecretService
        }
        try update { $0[accountID] = kept }
        return kept.secretsIn == nil ? .file : .secretService
    }

    /// Where the secrets of the account's stored credential are, or nil when none is stored.
    public func place(of accountID: String) -> Place? {
        // Only for words after a sign-in that just wrote the file; a file that cannot be read fails that sign-in first.
        guard let stored = (try? load())?[accountID] else { return nil }
        return stored.secretsIn == Self.keptInSecretService ? .secretService : .file
    }

    public func remove(for accountID: String) throws {
        if let secretService {
            // Secrets of an account the file no longer names are never read again; the file is what must change.
            for field in ["password", "token"] { try? secretService.clear(account: accountID, field: field) }
        }
        try update { $0[accountID] = nil }
    }

    /// Removes every stored credential whose key `matches` (a reading-list service's secrets when it is
    /// disconnected), from the Secret Service and the file, in one change of the file.
    public func remove(where matches: (String) -> Bool) throws {
        let keys = try load().keys.filter(matches)
        guard !keys.isEmpty else { return }
        if let secretService {
            // As in `remove(for:)`: the file is what must change.
            for key in keys {
                for field in ["password", "token"] { try? secretService.clear(account: key, field: field) }
            }
        }
        try update { all in for key in keys { all[key] = nil } }
    }

    private func keep(_ credential: Credential, for accountID: String, in service: SecretService) throws {
        for (field, value) in [("password", credential.password), ("token", credential.token)] {
            if let value {
                try service.store(value, account: accountID, field: field)
            } else {
                try service.clear(account: accountID, field: field)
            }
        }
    }

    func load() throws -> [String: Credential] {
        guard let data = FileManager.default.contents(atPath: file.path) else { return [:] }
        guard let all = try? JSONDecoder.credentials.decode([String: Credential].self, from: data) else {
            throw ShelfError(
                .badData, "the credentials file cannot be read", subject: file.path,
                next: NextStep(
                    terminal: "Remove it and sign in again with `shelf login`.",
                    browser: "Remove it and sign in again on the Accounts page."))
        }
        return all
    }

    private func update(_ change: (inout [String: Credential]) -> Void) throws {
        try ShelfDirectories.createDirectory(atPath: file.deletingLastPathComponent().path)
        let lockPath = file.path + ".lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            throw ShelfError(
                .permission, "cannot lock the credentials file", subject: lockPath,
                hint: "Check the permissions of shelf's config folder.")
        }
        defer { close(lock) }
        flock(lock, LOCK_EX)
        defer { flock(lock, LOCK_UN) }
        var all = try load()
        change(&all)
        let data = try JSONEncoder.credentials.encode(all)
        let temporary = file.path + ".\(getpid()).tmp"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ShelfError(
                .permission, "cannot write the credentials file", subject: temporary,
                hint: "Check the permissions of shelf's config folder.")
        }
        fchmod(descriptor, 0o600)
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced, rename(temporary, file.path) == 0 else {
            unlink(temporary)
            throw ShelfError(
                .ioError, "cannot write the credentials file", subject: file.path,
                hint: "Check free space and the permissions of shelf's config folder.")
        }
    }
}

extension JSONEncoder {
    static var credentials: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension JSONDecoder {
    static var credentials: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
