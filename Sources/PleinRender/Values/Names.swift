import PleinText
import PleinCore
import PleinModel

/// How records are named on pages, in feeds and on maps.
struct Names: Rendering {
    let inputs: RenderInputs

    /// `1094 · Dapperbuurt`; the name alone when the id is only the name made into an id
    /// (`oosterschelde` → `Oosterschelde`).
    func area(_ area: AreaModel) -> String {
        guard let name = area.name else { return area.id }
        if Slug.make(name) == area.id { return name }
        return "\(area.id) · \(name)"
    }

    /// A photo's alternative text: its caption, else what it is and who took it.
    func photoAlt(_ album: AlbumModel, _ index: Int) -> String {
        let photo = album.photos[index]
        if let caption = photo.caption { return caption }
        let what = strings.format("photo_number", ["n": String(index + 1), "album": album.title])
        guard let by = photo.by.flatMap(view.member) else { return what }
        return what + ", " + strings["photo_by"].lowercased() + " " + by.name
    }

    /// A coordinate for people and for links: six decimals at most.
    func coordinate(_ value: Double) -> String { FixedPoint.text(value, digits: 6) }
}
