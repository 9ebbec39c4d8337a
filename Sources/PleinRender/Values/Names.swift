import PleinText
import PleinCore
import PleinModel

/// How records are named on pages, in feeds and on maps.
struct Names: Rendering {
    let inputs: RenderInputs

    /// `1094 · Dapperbuurt`; the name alone when the id is only the name made into an id
    /// (`oosterschelde` → `Oosterschelde`).
    func area(_ area: AreaModel) -> String { self.area(AreaCard(area)) }

    func area(_ card: AreaCard) -> String {
        guard let name = card.name else { return card.id }
        if Slug.make(name) == card.id { return name }
        return "\(card.id) · \(name)"
    }

    /// An area's name as pages show it, or its id when there is no such area (a narrower read
    /// than the area: `ModelView.areaCard`).
    func area(id: String) -> String { view.areaCard(id).map(area) ?? id }

    /// "Photo 3 of Zeeland", or "Video 3 of Zeeland".
    func itemNumber(_ album: AlbumModel, _ index: Int) -> String {
        let video = FileRole.isVideo(FileName.split(album.photos[index].file).ext)
        return strings.format(video ? "video_number" : "photo_number", ["n": String(index + 1), "album": album.title])
    }

    /// "12 photos", "12 photos · 2 videos", "1 video".
    func itemCount(_ album: AlbumModel) -> String {
        let videos = album.photos.count { FileRole.isVideo(FileName.split($0.file).ext) }
        let photos = album.photos.count - videos
        if videos == 0 { return strings.count("photo_count", photos) }
        if photos == 0 { return strings.count("video_count", videos) }
        return strings.count("photo_count", photos) + " · " + strings.count("video_count", videos)
    }

    /// A photo's alternative text: its caption, else what it is and who took it.
    func photoAlt(_ album: AlbumModel, _ index: Int) -> String {
        let photo = album.photos[index]
        if let caption = photo.caption { return caption }
        let what = itemNumber(album, index)
        guard let by = photo.by.flatMap(view.member) else { return what }
        return what + ", " + strings["photo_by"].lowercased() + " " + by.name
    }

    /// A coordinate for people and for links: six decimals at most.
    func coordinate(_ value: Double) -> String { FixedPoint.text(value, digits: 6) }
}
