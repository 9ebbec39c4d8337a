/// What a template sees: named values of a few known kinds. Page renderers build these from the
/// typed model; this is the only place model values meet the template engine.
public struct TemplateContext: Sendable, ExpressibleByDictionaryLiteral {
    var storage: [String: TemplateValue] = [:]

    public init() {}

    public init(dictionaryLiteral elements: (String, TemplateValue?)...) {
        storage.reserveCapacity(elements.count)
        for (key, value) in elements { storage[key] = value }
    }

    public subscript(key: String) -> TemplateValue? {
        get { storage[key] }
        set { storage[key] = newValue }
    }
}

/// The kinds of values a template can hold. `{{x}}` escapes text; only `.html` values are meant
/// for `{{{x}}}`.
///
/// In sections, `false` and empty lists are falsy; everything present is truthy, the empty
/// text and zero included (as in swift-mustache, which plein used before).
public enum TemplateValue: Sendable {
    case text(String)
    /// Markup produced by plein itself (rendered Markdown, inline SVG): already safe.
    case html(String)
    case flag(Bool)
    case number(Int)
    case object(TemplateContext)
    case list([TemplateContext])

    /// Optional text: nil (so sections stay closed) when absent or empty.
    public static func text(_ value: String?) -> TemplateValue? {
        guard let value, !value.isEmpty else { return nil }
        return .text(value)
    }
}
