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
    static func bars(id: String, title: String, description: String, unit: String, bars: [Bar], strings: Strings) -> String {
        let width = 640.0, height = 260.0
        let left = 44.0, right = 12.0, top = 30.0, bottom = 44.0
        let plotW = width - left - right, plotH = height - top - bottom
        let (top1, tickValues) = scale(max(bars.map(\.value).max() ?? 0, 1))
        var svg = open(id: id, width: width, height: height, title: title, description: description)
        for tick in tickValues {
            let y = top + plotH - tick / top1 * plotH
            svg += "<line class=\"chart-grid\" x1=\"\(n(left))\" x2=\"\(n(width - right))\" y1=\"\(n(y))\" y2=\"\(n(y))\"/>"
            svg += "<text class=\"chart-tick\" x=\"\(n(left - 6))\" y=\"\(n(y))\" text-anchor=\"end\">\(strings.decimal(tick, digits: tick == tick.rounded() ? 0 : 1))</text>"
        }
        svg += "<text class=\"chart-unit\" x=\"\(n(left - 6))\" y=\"\(n(top - 18))\" text-anchor=\"start\">\(XML.escape(unit))</text>"
        let slot = plotW / Double(max(bars.count, 1))
        let barWidth = min(48, slot * 0.7)
        let every = max(1, Int((Double(bars.count) * 46 / plotW).rounded(.up)))
        for (i, bar) in bars.enumerated() {
            let h = bar.value / top1 * plotH
            let x = left + slot * Double(i) + (slot - barWidth) / 2
            svg += "<g class=\"chart-bar\"><title>\(XML.escape(bar.detail))</title>"
            svg += "<rect rx=\"3\" x=\"\(n(x))\" y=\"\(n(top + plotH - h))\" width=\"\(n(barWidth))\" height=\"\(n(max(h, 0)))\" fill=\"\(palette[0])\"/></g>"
            if i % every == 0 {
                svg += "<text class=\"chart-label\" x=\"\(n(x + barWidth / 2))\" y=\"\(n(height - bottom + 18))\" text-anchor=\"middle\">\(XML.escape(bar.label))</text>"
            }
        }
        svg += "<line class=\"chart-axis\" x1=\"\(n(left))\" x2=\"\(n(width - right))\" y1=\"\(n(top + plotH))\" y2=\"\(n(top + plotH))\"/>"
        return svg + "</svg>"
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
    ) -> String {
        let width = 640.0, height = 300.0
        let left = 44.0, right = 130.0, top = 16.0, bottom = 40.0
        let plotW = width - left - right, plotH = height - top - bottom
        let (maxValue, tickValues) = scale(max(series.flatMap { $0.points.map(\.1) }.max() ?? 0, 1))
        let span = Double(max(end.seconds - start.seconds, 86_400))
        func x(_ m: Moment) -> Double { left + Double(m.seconds - start.seconds) / span * plotW }
        func y(_ v: Double) -> Double { top + plotH - v / maxValue * plotH }
        var svg = open(id: id, width: width, height: height, title: title, description: description)
        for tick in tickValues {
            svg += "<line class=\"chart-grid\" x1=\"\(n(left))\" x2=\"\(n(left + plotW))\" y1=\"\(n(y(tick)))\" y2=\"\(n(y(tick)))\"/>"
            svg += "<text class=\"chart-tick\" x=\"\(n(left - 6))\" y=\"\(n(y(tick)))\" text-anchor=\"end\">\(strings.number(Int(tick)))</text>"
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
                svg += "<text class=\"chart-label\" x=\"\(n(x(at)))\" y=\"\(n(height - bottom + 18))\" text-anchor=\"middle\">\(XML.escape(strings.shortDate(day)))</text>"
                labels += 1
            }
            day = CivilTime(secondsSinceEpoch: (day.daysSinceEpoch + Int64(stepDays)) * 86_400)
        }
        svg += "<line class=\"chart-axis\" x1=\"\(n(left))\" x2=\"\(n(left + plotW))\" y1=\"\(n(top + plotH))\" y2=\"\(n(top + plotH))\"/>"
        var ends: [(y: Double, name: String, color: String)] = []
        for s in series {
            var d = "M\(n(x(start))) \(n(y(0)))"
            var last = 0.0
            for (at, value, _) in s.points {
                d += "H\(n(x(at)))V\(n(y(value)))"
                last = value
            }
            d += "H\(n(x(end)))"
            svg += "<path class=\"chart-line\" d=\"\(d)\" stroke=\"\(s.color)\"/>"
            for (at, value, detail) in s.points {
                svg += "<circle cx=\"\(n(x(at)))\" cy=\"\(n(y(value)))\" r=\"4\" fill=\"\(s.color)\"><title>\(XML.escape(detail))</title></circle>"
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
            svg += "<line x1=\"\(n(left + plotW + 6))\" x2=\"\(n(left + plotW + 18))\" y1=\"\(n(labelY))\" y2=\"\(n(labelY))\" stroke=\"\(end.color)\" stroke-width=\"4\"/>"
            svg += "<text class=\"chart-name\" x=\"\(n(left + plotW + 22))\" y=\"\(n(labelY))\">\(XML.escape(end.name))</text>"
        }
        return svg + "</svg>"
    }

    private static func open(id: String, width: Double, height: Double, title: String, description: String) -> String {
        "<svg class=\"chart\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\" xmlns=\"http://www.w3.org/2000/svg\""
            + " role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\"><title id=\"\(id)-title\">\(XML.escape(title))</title>"
            + "<desc id=\"\(id)-desc\">\(XML.escape(description))</desc>"
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
