/// Every file of a served site by output path, made to be updated while the server holds the
/// last version: the files as they were at some update (`base`), and those set or removed since
/// (`recent`). An update that changes a few files adds a few entries to `recent`, where a single
/// dictionary shared with the server would be copied whole by the first change. When `recent`
/// grows large, it is folded into `base` (one copy, for many updates).
public struct ServedFiles: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Served = SiteState.Served
    private var base: [String: Served]
    /// Paths set (`.some`) or removed (`.none`) since `base`.
    private var recent: [String: Served?] = [:]

    public init(_ files: [String: Served] = [:]) {
        base = files
    }

    public init(dictionaryLiteral elements: (String, Served)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    public subscript(path: String) -> Served? {
        get {
            if let changed = recent[path] { return changed }
            return base[path]
        }
        set {
            recent[path] = .some(newValue)
            if recent.count > Swift.max(1024, base.count / 8) { fold() }
        }
    }

    public mutating func removeValue(forKey path: String) {
        self[path] = nil
    }

    /// Every path served.
    public var keys: [String] { Array(dictionary.keys) }

    public var count: Int { dictionary.count }

    /// The files as one dictionary (made for the asking: for tests and listings, not requests).
    public var dictionary: [String: Served] {
        var all = base
        for (path, served) in recent { all[path] = served }
        return all
    }

    public func makeIterator() -> Dictionary<String, Served>.Iterator {
        dictionary.makeIterator()
    }

    private mutating func fold() {
        for (path, served) in recent { base[path] = served }
        recent = [:]
    }
}
