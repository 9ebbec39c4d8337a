import PleinText
import PleinCore
import PleinMarkdown
import PleinModel
import PleinMustache

/// `/groups/<g>/albums/<a>/`: the album's story and a grid of its photos.
struct AlbumPage: PageRenderer {
    let inputs: RenderInputs
    let key: AlbumKey

    struct Tile: TemplateValues, Encodable {
        let url: String
        let caption: String?
        let by: MemberChip?
        let image: ImageValue?
        let video: VideoValue?
    }

    struct Values: TemplateValues, Encodable {
        let album: Album
    }

    struct Album: Encodable {
        let title: String
        let group: String
        let groupURL: String
        let date: TimeValue?
        let count: String
        let photos: [Tile]
        let body: TrustedHTML?
        let map: MapBlock?
        /// The album in the CMS, where members add photos.
        let addPhotosURL: String?
    }

    func page() -> Page {
        guard let g = view.group(key.group), let album = view.album(key) else {
            return missingPage("album \(key.group)/\(key.album)", kind: .album, path: routes.album(key), section: .groups)
        }
        let photos = album.photos.enumerated().map { index, photo in
            Tile(
                url: routes.url(routes.photo(key, photo.slug)), caption: photo.caption, by: photo.by.map(chip),
                image: view.image(photo.path).map {
                    image($0, alt: names.photoAlt(album, index), sizes: "(min-width: 70rem) 22rem, (min-width: 40rem) 45vw, 100vw")
                },
                video: view.video(photo.path).map { VideoValue($0, poster: view.image(photo.path), routes: routes) })
        }
        let features = maps.features
        let map = features.albumHasMap(album)
            ? maps.block(id: "map-album", title: album.title, features: features.features(.album(key)),
                         geoJSON: sealed(key.group) ? nil : features.path(.album(key)))
            : nil
        var page = Page(
            kind: .album, path: routes.album(key), title: album.title,
            description: summary(of: album.file, limit: 200, otherwise: album.title), section: .groups)
        page.values = Values(album: Album(
            title: album.title, group: g.name, groupURL: routes.url(routes.group(g.id)), date: time(album.date),
            count: names.itemCount(album), photos: photos, body: view.body(album.file)?.html, map: map,
            addPhotosURL: cms.album(group: key.group, album: key.album)))
        page.hasMap = map != nil
        if let cover = album.cover, let image = view.image(cover.path) { page.image = (image.preview ?? image.display).path }
        page.noindex = !g.isListed
        page.feeds = groupFeeds(g)
        page.source = album.file
        page.breadcrumbs = groupCrumbs(g)
        return page
    }
}

/// `/groups/<g>/albums/<a>/<photo>/`: one photo with its caption, author and neighbours.
struct PhotoPage: PageRenderer {
    let inputs: RenderInputs
    let key: AlbumKey
    let slug: String

    struct Neighbour: TemplateValues, Encodable {
        let url: String
        let caption: String
    }

    struct Values: TemplateValues, Encodable {
        let photo: Photo
    }

    struct Photo: Encodable {
        let title: String
        let caption: String?
        let position: String
        let album: String
        let albumURL: String
        let by: MemberChip?
        let image: ImageValue?
        let video: VideoValue?
        let fullURL: String?
        let taken: TimeValue?
        /// When the photo was published: its album's date (the h-entry's `dt-published`).
        let published: TimeValue?
        let camera: String?
        let previous: Neighbour?
        let next: Neighbour?
        let map: MapBlock?
    }

    func page() -> Page {
        guard let g = view.group(key.group), let album = view.album(key), let index = album.photos.firstIndex(where: { $0.slug == slug }) else {
            return missingPage("photo \(key.group)/\(key.album)/\(slug)", kind: .photo, path: routes.photo(key, slug), section: .groups)
        }
        let photo = album.photos[index]
        let title = photo.caption ?? names.itemNumber(album, index)
        let published = view.image(photo.path)
        func neighbour(_ i: Int) -> Neighbour? {
            guard album.photos.indices.contains(i) else { return nil }
            let other = album.photos[i]
            return Neighbour(url: routes.url(routes.photo(key, other.slug)), caption: other.caption ?? other.file)
        }
        // A photo's own map only where the album shows exact positions: a point snapped to the
        // privacy grid, alone on a map zoomed to it, would look precise to the metre.
        let map = album.map != .exact ? nil : maps.features.photoFeature(album, photo).flatMap {
            maps.block(id: "map-photo", title: title, features: [$0], geoJSON: sealed(key.group) ? nil : maps.features.path(.album(key)), highlight: $0.path)
        }
        var page = Page(
            kind: .photo, path: routes.photo(key, photo.slug), title: title, description: photo.caption ?? album.title, section: .groups)
        page.values = Values(photo: Photo(
            title: title, caption: photo.caption,
            position: strings.format("photo_position", ["n": String(index + 1), "total": String(album.photos.count)]),
            album: album.title, albumURL: routes.url(routes.album(key)), by: photo.by.map(chip),
            image: published.map { image($0, alt: photo.caption ?? "", sizes: "(min-width: 70rem) 64rem, 100vw") },
            video: view.video(photo.path).map { VideoValue($0, poster: published, routes: routes) },
            fullURL: published.map { routes.url($0.display.path) }, taken: published?.info.takenAt.map { time(Moment(seconds: $0)) },
            published: time(album.date), camera: published?.info.camera, previous: neighbour(index - 1), next: neighbour(index + 1), map: map))
        page.hasMap = map != nil
        if let published { page.image = (published.preview ?? published.display).path }
        page.noindex = !g.isListed
        page.feeds = groupFeeds(g)
        page.source = album.file
        page.breadcrumbs = groupCrumbs(g) + [(album.title, routes.album(key))]
        return page
    }
}
