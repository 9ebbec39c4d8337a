public import PleinText
import PleinMarkdown
import Foundation
public import PleinCore
import PleinModel

/// One colour and one icon per report category, shared by badges, the SVG maps and the
/// GeoJSON `marker-color` (so every view of a report looks the same).
public enum CategoryStyle {
    /// Colours with at least 4.5:1 contrast against white text.
    public static func color(_ category: Category) -> String {
        switch category {
        case .suspicious: return "#b91c1c"
        case .attention: return "#b45309"
        case .event: return "#6d28d9"
        case .complaint: return "#0f766e"
        case .message: return "#1d4ed8"
        }
    }

    /// A Maki icon name for simplestyle `marker-symbol`.
    public static func symbol(_ category: Category) -> String {
        switch category {
        case .suspicious: return "police"
        case .attention: return "danger"
        case .event: return "star"
        case .complaint: return "warehouse"
        case .message: return "information"
        }
    }

    /// A small inline SVG icon (decorative: the label says the same).
    public static func icon(_ category: Category) -> TrustedHTML {
        let path: StaticString
        switch category {
        case .suspicious:  // eye
            path = "M1 8s2.5-5 7-5 7 5 7 5-2.5 5-7 5-7-5-7-5zm7 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6z"
        case .attention:  // triangle with exclamation mark
            path = "M8 1 15 14H1zM7.2 6v4h1.6V6zm0 5v1.6h1.6V11z"
        case .event:  // star
            path = "M8 1l2.1 4.5 4.9.6-3.6 3.4.9 4.9L8 12l-4.3 2.4.9-4.9L1 6.1l4.9-.6z"
        case .complaint:  // speech bubble with a bar
            path = "M2 2h12v9H6l-4 3zM5 6v1.6h6V6z"
        case .message:  // envelope
            path = "M1 3h14v10H1zm1.5 1.5v.4L8 8.6l5.5-3.7v-.4zM2.5 6.7v4.8h11V6.7L8 10.4z"
        }
        var svg = MarkupWriter(capacity: 256)
        svg.open("svg", .init("class", "icon"), .init("viewBox", "0 0 16 16"), .init("width", "16"), .init("height", "16"),
                 .init("aria-hidden", "true"), .init("focusable", "false"))
        svg.empty("path", .init("fill", "currentColor"), .init("fill-rule", "evenodd"), .init("d", path.description))
        svg.close("svg")
        return svg.html
    }
}
