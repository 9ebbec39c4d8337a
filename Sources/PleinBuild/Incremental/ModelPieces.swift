import PleinCore
import PleinModel
import PleinRender

/// A `PieceKind` whatever its value type, for the code that goes over every kind.
struct AnyPieceKind: Sendable {
    /// Every piece of `model` as (key, value), each with whether it equals the piece of the same
    /// id in `before` (false without one).
    let entries: @Sendable (_ model: SiteModel, _ images: ImageCatalog, _ before: (model: SiteModel, images: ImageCatalog)?)
        -> [(key: String, value: any Encodable & Sendable, unchanged: Bool)]

    /// The fingerprints of the pieces of these ids (nil for one the model has not).
    let fingerprints: @Sendable (_ model: SiteModel, _ images: ImageCatalog, _ ids: [String]) -> [(key: String, value: [UInt8]?)]

    init<Value>(_ kind: PieceKind<Value>) {
        entries = { model, images, before in
            let old = before.map { kind.all($0.model, $0.images) }
            return kind.all(model, images).map { id, value in (kind.key(id), value, old?[id] == value) }
        }
        fingerprints = { model, images, ids in
            let pieces = kind.all(model, images)
            return ids.map { id in (kind.key(id), pieces[id].map { FingerprintEncoder.fingerprint($0) }) }
        }
    }
}

extension ModelPieces {
    /// Every kind of the table, for the code that goes over them all.
    static let every: [AnyPieceKind] = [
        AnyPieceKind(member), AnyPieceKind(group), AnyPieceKind(report), AnyPieceKind(area), AnyPieceKind(location),
        AnyPieceKind(thread), AnyPieceKind(sessions), AnyPieceKind(page), AnyPieceKind(pageOrder), AnyPieceKind(menu),
        AnyPieceKind(formerMembers), AnyPieceKind(memberOrder), AnyPieceKind(groupOrder), AnyPieceKind(reportOrder),
        AnyPieceKind(areaOrder), AnyPieceKind(locationOrder), AnyPieceKind(places), AnyPieceKind(asOf), AnyPieceKind(today),
        AnyPieceKind(image),
    ]

    /// The pieces a model made again piece by piece (`ModelChange`) may have changed, by kind
    /// and id. (A report's are `Facts.report`'s, with its narrower views and bodies.)
    static func pieces(of change: ModelChange, in model: SiteModel) -> [(kind: AnyPieceKind, ids: [String])] {
        var pieces: [(kind: AnyPieceKind, ids: [String])] = [
            (AnyPieceKind(member), change.members.sorted()), (AnyPieceKind(group), change.groups.sorted()),
            (AnyPieceKind(location), change.locations.sorted()), (AnyPieceKind(thread), change.threads.sorted()),
        ]
        if change.pages {
            pieces += [(AnyPieceKind(page), model.pages.map(\.id)), (AnyPieceKind(pageOrder), [""]), (AnyPieceKind(menu), [""])]
        }
        if !change.areas.isEmpty { pieces.append((AnyPieceKind(area), change.areas.sorted())) }
        if change.reportOrder { pieces.append((AnyPieceKind(reportOrder), [""])) }
        if let members = change.sessions {
            pieces += [(AnyPieceKind(sessions), members.sorted()), (AnyPieceKind(asOf), [""])]
        }
        return pieces.filter { !$0.ids.isEmpty }
    }
}
