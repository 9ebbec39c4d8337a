/// "Did you mean …?" from an edit distance.
public enum Suggestions {
    /// The candidate closest to `word`, if it is close enough to be a plausible typo.
    public static func closest<S: Sequence>(to word: String, in candidates: S) -> String? where S.Element == String {
        let lowered = Array(word.lowercased().unicodeScalars)
        let limit = max(1, min(3, lowered.count / 3 + 1))
        var best: (distance: Int, candidate: String)?
        for candidate in candidates {
            let distance = editDistance(lowered, Array(candidate.lowercased().unicodeScalars), limit: limit)
            guard distance <= limit else { continue }
            if best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.candidate) {
                best = (distance, candidate)
            }
        }
        return best?.candidate
    }

    /// The candidates sorted by distance to `word`, closest first (for listing alternatives).
    public static func ranked<S: Sequence>(_ word: String, in candidates: S, count: Int) -> [String] where S.Element == String {
        let lowered = Array(word.lowercased().unicodeScalars)
        return candidates
            .map { (editDistance(lowered, Array($0.lowercased().unicodeScalars), limit: .max), $0) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .prefix(count)
            .map(\.1)
    }

    /// Damerau–Levenshtein distance (optimal string alignment), stopping early above `limit`.
    public static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if a == b { return 0 }
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMin = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
                rowMin = min(rowMin, value)
            }
            if rowMin > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
