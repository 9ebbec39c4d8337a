import PleinText
import Foundation
import PleinCore
import PleinModel

/// Small, dependency-free SVG charts. Each has a `<title>` and `<desc>`, labelled axes, and a
/// `<title>` per bar or point; the pages put the same numbers in a table next to it.
enum Charts {
    static let palette = ["#1d4ed8", "#b91c1c", "#0f766e", "#6d28d9", "#b45309", "#be185d", "#4d7c0f", "#334155"]

    struct Bar {
        let label: String
        let value: Double
        /// Shown as the bar's tooltip.
        let detail: String
    }

    /// Vertical bars with a value axis.
    static func bars(id: String, title: String, description: String, unit: String, bars: [Bar], strings: Strings) -> TrustedHTML {
        let width = 640.0, height = 260.0
        let left = 44.0, right = 12.0, top = 30.0, bottom = 44.0
        let plotW = width - left - right, plotH = height - top - bottom
        let (top1, tickValues) = scale(max(bars.map(\.value).max() ?? 0, 1))
        var svg = open(id: id, width: width, height: height, title: title, description: description)
        for tick in tickValues {
            let y = top + plotH - tick / top1 * plotH
            svg.empty("line", .init("class", "chart-grid"), .init("x1", n(left)), .init("x2", n(width - right)), .init("y1", n(y)), .init("y2", n(y)))
            svg.element("text", .init("class", "chart-tick"), .init("x", n(left - 6)), .init("y", n(y)), .init("text-anchor", "end"),
                        text: strings.decimal(tick, digits: tick == tick.rounded() ? 0 : 1))
        }
        svg.element("text", .init("class", "chart-unit"), .init("x", n(left - 6)), .init("y", n(top - 18)), .init("text-anchor", "start"), text: unit)
        let slot = plotW / Double(max(bars.count, 1))
        let barWidth = min(48, slot * 0.7)
        let every = max(1, Int((Double(bars.count) * 46 / plotW).rounded(.up)))
        for (i, bar) in bars.enumerated() {
            let h = bar.value / top1 * plotH
            let x = left + slot * Double(i) + (slot - barWidth) / 2
            svg.open("g", .init("class", "chart-bar"))
            svg.element("title", text: bar.detail)
            svg.empty("rect", .init("rx", "3"), .init("x", n(x)), .init("y", n(top + plotH - h)), .init("width", n(barWidth)),
                      .init("height", n(max(h, 0))), .init("fill", palette[0]))
            svg.close("g")
            if i % every == 0 {
                svg.element("text", .init("class", "chart-label"), .init("x", n(x + barWidth / 2)), .init("y", n(height - bottom + 18)),
                            .init("text-anchor", "middle"), text: bar.label)
            }
        }
        svg.empty("line", .init("class", "chart-axis"), .init("x1", n(left)), .init("x2", n(width - right)), .init("y1", n(top + plotH)),
                  .init("y2", n(top + plotH)))
        svg.close("svg")
        return svg.html
    }

    struct Series {
        let name: String
        let color: String
        /// (time, cumulative value) in time order.
        let points: [(Moment, Double, String)]
    }

    /// Step lines of cumulative values over time, one per series, named at their ends.
    static func steps(
        id: String, title: String, description: String, series: [Series], start: Moment, end: Moment, clock: SiteClock,
        strings: Strings
    ) -> TrustedHTML {
        let width = 640.0, height = 300.0
        let left = 44.0, right = 130.0, top = 16.0, bottom = 40.0
        let plotW = width - left - right, plotH = height - top - bottom
        let (maxValue, tickValues) = scale(max(series.flatMap { $0.points.map(\.1) }.max() ?? 0, 1))
        let span = Double(max(end.seconds - start.seconds, 86_400))
        func x(_ m: Moment) -> Double { left + Double(m.seconds - start.seconds) / span * plotW }
        func y(_ v: Double) -> Double { top + plotH - v / maxValue * plotH }
        var svg = open(id: id, width: width, height: height, title: title, description: description)
        for tick in tickValues {
            svg.empty("line", .init("class", "chart-grid"), .init("x1", n(left)), .init("x2", n(left + plotW)), .init("y1", n(y(tick))),
                      .init("y2", n(y(tick))))
            svg.element("text", .init("class", "chart-tick"), .init("x", n(left - 6)), .init("y", n(y(tick))), .init("text-anchor", "end"),
                        text: strings.number(Int(tick)))
        }
        // Date ticks: about five, at midnight in the site's time zone.
        let days = max(1, Int(span / 86_400))
        let stepDays = max(1, days / 5)
        var day = clock.civil(start).dateOnly
        var labels = 0
        while labels < 8 {
            let at = Moment(seconds: clock.instant(of: day))
            if at.seconds > end.seconds { break }
            if at.seconds >= start.seconds {
                svg.element("text", .init("class", "chart-label"), .init("x", n(x(at))), .init("y", n(height - bottom + 18)),
                            .init("text-anchor", "middle"), text: strings.shortDate(day))
                labels += 1
            }
            day = CivilTime(secondsSinceEpoch: (day.daysSinceEpoch + Int64(stepDays)) * 86_400)
        }
        svg.empty("line", .init("class", "chart-axis"), .init("x1", n(left)), .init("x2", n(left + plotW)), .init("y1", n(top + plotH)),
                  .init("y2", n(top + plotH)))
        var ends: [(y: Double, name: String, color: String)] = []
        for s in series {
            var d = "M\(n(x(start))) \(n(y(0)))"
            var last = 0.0
            for (at, value, _) in s.points {
                d += "H\(n(x(at)))V\(n(y(value)))"
                last = value
            }
            d += "H\(n(x(end)))"
            svg.empty("path", .init("class", "chart-line"), .init("d", d), .init("stroke", s.color))
            for (at, value, detail) in s.points {
                svg.open("circle", .init("cx", n(x(at))), .init("cy", n(y(value))), .init("r", "4"), .init("fill", s.color))
                svg.element("title", text: detail)
                svg.close("circle")
            }
            ends.append((y(last), s.name, s.color))
        }
        // Names at the line ends, pushed apart so they do not overlap.
        ends.sort { $0.y < $1.y }
        var previous = -Double.infinity
        for end in ends {
            let labelY = max(end.y, previous + 14)
            previous = labelY
            // A swatch in the line's colour; the name itself in the text colour, readable in both schemes.
            svg.empty("line", .init("x1", n(left + plotW + 6)), .init("x2", n(left + plotW + 18)), .init("y1", n(labelY)), .init("y2", n(labelY)),
                      .init("stroke", end.color), .init("stroke-width", "4"))
            svg.element("text", .init("class", "chart-name"), .init("x", n(left + plotW + 22)), .init("y", n(labelY)), text: end.name)
        }
        svg.close("svg")
        return svg.html
    }

    /// `<svg>` with its title and description; the chart follows, then `</svg>`.
    private static func open(id: String, width: Double, height: Double, title: String, description: String) -> MarkupWriter {
        .svg(class: "chart", id: id, width: width, height: height, title: title, description: description,
             labelling: [.init("role", "img"), .init("aria-labelledby", "\(id)-title \(id)-desc")], capacity: 8192)
    }

    /// 1, 2 or 5 times a power of ten, at least `value`.
    static func niceCeiling(_ value: Double) -> Double {
        var magnitude = 1.0
        while magnitude * 10 <= value { magnitude *= 10 }
        while magnitude > value { magnitude /= 10 }
        for step in [1.0, 2, 5, 10] where step * magnitude >= value { return step * magnitude }
        return 10 * magnitude
    }

    /// A round top for the axis and ticks at round steps (at most five).
    static func scale(_ maximum: Double) -> (top: Double, ticks: [Double]) {
        let step = max(1, niceCeiling(maximum / 4))
        let count = Int((maximum / step).rounded(.up))
        return (Double(count) * step, (0...count).map { Double($0) * step })
    }

    static func n(_ value: Double) -> String {
        FixedPoint.text(value, digits: 1)
    }
}

extension MarkupWriter {
    /// An `<svg>` drawing of `width` × `height` with its `<title>` and `<desc>` (ids `<id>-title`
    /// and `<id>-desc`, which the `labelling` attributes point to); the drawing follows, then
    /// `</svg>`.
    static func svg(
        class name: String, id: String, width: Double, height: Double, title: String, description: String, labelling: [Attribute],
        capacity: Int
    ) -> MarkupWriter {
        var svg = MarkupWriter(capacity: capacity)
        let size = [Attribute("class", name), Attribute("viewBox", "0 0 \(Charts.n(width)) \(Charts.n(height))"),
                    Attribute("width", Charts.n(width)), Attribute("height", Charts.n(height)), Attribute("xmlns", "http://www.w3.org/2000/svg")]
        svg.open("svg", attributes: size + labelling)
        svg.element("title", .init("id", "\(id)-title"), text: title)
        svg.element("desc", .init("id", "\(id)-desc"), text: description)
        return svg
    }
}
