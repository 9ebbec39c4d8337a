import PleinCore
import PleinModel
import PleinRender

/// A `PieceKind` whatever its value type, for the code that goes over every kind.
struct AnyPieceKind: Sendable {
    let kind: Dependency.Kind
    /// Every piece of `model` as (key, value), each with whether it equals the piece of the same
    /// id in `before` (false without one).
    let entries: @Sendable (_ model: SiteModel, _ images: ImageCatalog, _ before: (model: SiteModel, images: ImageCatalog)?)
        -> [(key: String, value: any Encodable & Sendable, unchanged: Bool)]

    /// The fingerprints of the pieces of these ids (nil for one the model has not).
    let fingerprints: @Sendable (_ model: SiteModel, _ images: ImageCatalog, _ ids: [String]) -> [(key: String, value: [UInt8]?)]
    /// The piece of an id in a source (nil when it has none).
    let piece: @Sendable (_ source: any ModelSource, _ id: String) -> (any Sendable)?

    init<Value>(_ kind: PieceKind<Value>) {
        self.kind = kind.kind
        piece = { source, id in source.piece(kind, id) }
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
    static let every: [AnyPieceKind] = every(Erasing())

    private struct Erasing: PieceKindVisitor {
        func visit<Value>(_ kind: PieceKind<Value>) -> AnyPieceKind { AnyPieceKind(kind) }
    }

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
        if change.memberOrder { pieces.append((AnyPieceKind(memberOrder), [""])) }
        if change.formerMembers { pieces.append((AnyPieceKind(formerMembers), [""])) }
        if !change.images.isEmpty { pieces.append((AnyPieceKind(image), change.images.sorted())) }
        if change.today { pieces.append((AnyPieceKind(today), [""])) }
        if let members = change.sessions {
            pieces += [(AnyPieceKind(sessions), members.sorted()), (AnyPieceKind(asOf), [""])]
        }
        return pieces.filter { !$0.ids.isEmpty }
    }
}

/// A `ViewKind` whatever its types, for the code that goes over every view.
struct AnyViewKind: Sendable {
    let kind: Dependency.Kind
    /// The kind of piece it is a view of.
    let base: Dependency.Kind
    let stored: Bool
    /// For a model: the ids of the pieces it has of the view's base kind, and the view of one
    /// by id as its key, value and fingerprint (nil when the model has no such piece).
    let views: @Sendable (SiteModel, ImageCatalog)
        -> (ids: [String], view: @Sendable (String) -> (key: String, value: any Encodable & Sendable, fact: [UInt8])?)
    /// The key and fingerprint of the view of a piece of its base kind given whole (nil when it is
    /// of another type).
    let fact: @Sendable (_ piece: any Sendable, _ id: String) -> (key: String, fact: [UInt8])?
    /// The view of the piece of an id in a source (nil when it has no such piece).
    let view: @Sendable (_ source: any ModelSource, _ id: String) -> (any Sendable)?

    init<Base, Value>(_ kind: ViewKind<Base, Value>) {
        self.kind = kind.kind
        view = { source, id in source.view(kind, id) }
        base = kind.base.kind
        stored = kind.stored
        views = { model, images in
            let pieces = kind.base.all(model, images)
            return (Array(pieces.keys), { id in
                pieces[id].map { piece in
                    let value = kind.make(piece)
                    return (kind.key(id), value, FingerprintEncoder.fingerprint(value))
                }
            })
        }
        fact = { piece, id in (piece as? Base).map { (kind.key(id), FingerprintEncoder.fingerprint(kind.make($0))) } }
    }
}

extension ModelViews {
    /// Every view of the table, for the code that goes over them all.
    static let every: [AnyViewKind] = every(Erasing())

    private struct Erasing: ViewKindVisitor {
        func visit<Base, Value>(_ kind: ViewKind<Base, Value>) -> AnyViewKind { AnyViewKind(kind) }
    }

    /// The views of each kind of piece.
    static let byBase: [Dependency.Kind: [AnyViewKind]] = Dictionary(grouping: every, by: \.base)

    /// The facts of the views of a piece given whole (of kind `base`, id `id`).
    static func facts(of piece: any Sendable, _ base: Dependency.Kind, _ id: String) -> [(String, [UInt8])] {
        (byBase[base] ?? []).compactMap { $0.fact(piece, id) }.map { ($0.key, $0.fact) }
    }
}
