/// Which connector service a `shelf conformance --set`/`--secret` is for: `KEY=VALUE` goes to every service of the
/// plugin, `SERVICE.KEY=VALUE` to that service alone (it wins over the same key given to every service). A service
/// id may hold dots itself ("org.example.list"), so the longest service id the name begins with decides; a name
/// that begins with none is a key of every service, dots and all.
struct ServiceSettings {
    let given: [String: String]
    let services: [String]

    /// The service a name is for and its key there; nil service for every service.
    func split(_ name: String) -> (service: String?, key: String) {
        let owner = services.filter { name.hasPrefix($0 + ".") && name.count > $0.count + 1 }.max {
            $0.count < $1.count
        }
        guard let owner else { return (nil, name) }
        return (owner, String(name.dropFirst(owner.count + 1)))
    }

    /// The settings `service` is given: those for every service, then its own over them.
    func of(_ service: String) -> [String: String] {
        var shared: [String: String] = [:], own: [String: String] = [:]
        for (name, value) in given {
            let (owner, key) = split(name)
            if owner == nil { shared[key] = value } else if owner == service { own[key] = value }
        }
        return shared.merging(own) { _, mine in mine }
    }
}
