/// Every kind of problem `plein check` can report. The text for each is written once, here.
public enum Problem: Sendable, Hashable, Error {
    // MARK: Files
    case notUTF8
    case nulBytes
    case emptyFile
    case missingFrontMatter
    case unclosedFrontMatter
    case yamlSyntax(String)
    /// A common YAML mistake, in plain words, at the line to change.
    case yamlMistake(String, hint: String?)
    case fileTooLarge(bytes: Int, limit: Int)
    case unexpectedFile(hint: String)
    case pathOutsideContent(String)
    case symlinkOutsideContent(String)
    /// A symbolic link inside the content folder that plein does not follow, and why.
    case symlinkRefused(String)
    /// A file with `links` names, not all of them in the content folder.
    case hardLinkOutsideContent(links: Int)
    case unreadable(String)
    case missingFile(String)
    case templateSyntax(String)
    case missingTemplate(String)
    case duplicateTemplate(String, other: String)
    case missingText(String, language: String)

    // MARK: Fields
    case missingField(String)
    case unknownField(String, suggestion: String?)
    case wrongType(expected: String, found: String)
    case invalidDate(String, reason: String)
    case missingUTCOffset(String, assumed: String)
    case notAChoice(String, field: String, choices: [String], suggestion: String?)
    case notPositive(field: String, value: Int)
    case outOfRange(field: String, value: String, range: String)
    case invalidSlug(String, suggestion: String)
    case invalidEmail(String)
    case invalidURL(String, reason: String)
    case unknownTimeZone(String, suggestion: String?)
    case invalidOpeningHours(String)
    case invalidDays(String, suggestion: String?)
    case dayGivenTwice(String)
    case tooFewPoints(field: String, count: Int, minimum: Int)
    case invalidFileName(String, expected: String)
    case dateMismatch(fileDate: String, recordDate: String)
    /// A field that names where the file belongs (`area`, `report`, `group`: what a CMS writes to
    /// place the file) and another place than the file's folder.
    case misplaced(field: String, value: String, folder: String)
    /// `cms` in site.yaml lacks what members need to sign in (a warning: the site is whole).
    case cmsNeeds(String)
    /// What the site hides (a members-only or private group, a thread) is plain text in the
    /// content repository, which may be public.
    case plainInRepository(what: String, repository: String, forge: CMSSettings.Forge?)
    case invalidIntegrity(String)
    /// A colour of `app` in site.yaml that is not `#rgb` or `#rrggbb` (a warning: the theme's is
    /// used).
    case invalidColour(field: String, value: String)
    /// The app's icon (`app.icon`, else the theme's) could not be made (a warning: the manifest
    /// names the theme's vector icon).
    case appIcon(String, reason: String)

    // MARK: Identity
    case idCollision(String, other: String)
    case reservedPageName(String)
    case duplicateEmail(String, firstIn: String)
    case duplicateGroupName(String, other: String)
    case duplicateReport(String, other: String)
    case duplicateEntry(String, field: String)

    // MARK: References
    case unknownReference(Reference, String, suggestion: String?)
    /// A member of a group's list that is no member, with the places where someone who is no
    /// member of the group follows from it ("'bo-yu' is not a member of this group").
    case unknownGroupMember(String, suggestion: String?, causes: [String])
    case notGroupMember(member: String, group: String, suggestion: String?)
    case completionHalf(present: String, missing: String)
    case completedBeforeAdded
    /// `event`: whether the report is an event (the hint then suggests `starts`).
    case replyBeforeReport(event: Bool)
    /// An event's end before its start.
    case eventEndsBeforeStart
    /// `ends` without `starts`.
    case eventEndsWithoutStart
    /// `starts`, `ends` or `place` (the field) on a report that is not an event.
    case eventFieldWithoutEvent(String)
    case checkOutBeforeCheckIn
    case overlappingCheckIns(otherLine: Int)
    case overCapacity(location: String, open: Int, seats: Int)
    case tooFewParticipants(Int)
    case notParticipant(String, suggestion: String?)
    case imageTypeMismatch(file: String, declared: String, actual: String)
    case notAnImage(file: String)
    /// A report's file that would be published where plein writes one of the report's own files.
    case attachmentTakesOutput(file: String, output: String)
    /// A report's file whose first bytes are not what its extension says.
    case attachmentMismatch(file: String, type: String)
    case corruptImage(file: String, reason: String)
    case tooManyPixels(file: String, width: Int, height: Int, limit: Int)
    case corruptVideo(file: String, reason: String)
    case emptyVideo(file: String)
    case videoTooLong(file: String, seconds: Int, limit: Int)
    /// ffmpeg is not installed: the video is offered as a download (`published`), or left out.
    case videoWithoutFFmpeg(file: String, published: Bool)
    case groupWithoutMembers
    /// A members-only group's passphrase is too weak to protect it (`Passphrase.weakness`).
    case weakPassphrase(group: String, reason: String)
    /// The thread secret (`PLEIN_SECRET`, `--secret-file`) is too weak for the threads' addresses
    /// and keys, which it makes: said at the first thread's file, and no thread is published.
    case weakSecret(reason: String)
    /// A members-only group whose passphrase was not given: not published.
    case noPassphrase(group: String, variable: String)
    case photoWithoutCaption(String)
    case emptyAlbum
    case threadWithoutMessages
    case sectionOff(String, folder: String, files: Int)
    case categoryOff(String, allowed: [String])
    case tallyWithoutTarget(field: String)
    case divingCardsOff(count: Int)
    case placeholderLeft(String)
    /// A Markdown link or image whose address has a space, which Markdown shows as text.
    case spaceInAddress(written: String, address: String, title: String, image: Bool)
    /// A line of Markdown that opens more lists and quotes inside each other than plein renders
    /// in bounded time (`MarkdownBounds.maxNesting`).
    case nestedTooDeep(depth: Int, limit: Int)
    /// A paragraph with more runs of `*` or `_` than plein renders in bounded time.
    case tooManyEmphasisMarks(runs: Int, limit: Int)
    /// A text with more footnote references than plein renders (`MarkdownBounds.maxFootnoteReferences`).
    case tooManyFootnoteReferences(references: Int, limit: Int)
    /// A member's registered e-mail address written into a text that is published.
    case registeredAddressInText(member: String)
    case checkInWhileClosed(location: String, day: String)
    case unknownPhoto(String, suggestion: String?, present: [String])
    case unknownLabel(String, suggestion: String?)
    case labelLeavesPartners(String, word: String, partners: [String])

    /// What a reference points at, for "unknown …" messages.
    public enum Reference: String, Sendable, Hashable {
        case member, group, location, place, report, photo, avatar, area
    }

    public var severity: Severity {
        switch self {
        case .missingUTCOffset, .overCapacity, .dateMismatch, .groupWithoutMembers, .photoWithoutCaption, .unexpectedFile,
             .emptyAlbum, .threadWithoutMessages, .nulBytes, .sectionOff, .divingCardsOff, .placeholderLeft, .spaceInAddress, .registeredAddressInText, .checkInWhileClosed, .unknownLabel, .labelLeavesPartners,
             .replyBeforeReport, .videoWithoutFFmpeg, .attachmentMismatch, .noPassphrase, .cmsNeeds, .plainInRepository, .invalidColour, .appIcon:
            return .warning
        default:
            return .error
        }
    }

    /// A stable machine-readable name for `--format json`.
    public var code: String {
        let name = String(describing: self)
        let head = name.prefix { $0.isLetter || $0.isNumber }
        var out = ""
        for ch in head {
            if ch.isUppercase { out += "-" + ch.lowercased() } else { out.append(ch) }
        }
        return out
    }

    public var message: String {
        switch self {
        case .notUTF8: return "this file is not UTF-8 text"
        case .nulBytes: return "this file holds NUL bytes, which plein drops: is it really a text file?"
        case .emptyFile: return "this file is empty"
        case .missingFrontMatter: return "this file must start with front matter between '---' lines"
        case .unclosedFrontMatter: return "the front matter is never closed: add a line with only '---' after it"
        case .yamlSyntax(let text): return "YAML syntax: \(text)"
        case .yamlMistake(let text, _): return text
        case .fileTooLarge(let bytes, let limit): return "this file has \(bytes) bytes; the limit is \(limit)"
        case .unexpectedFile(let hint): return "plein does not use this file: \(hint)"
        case .pathOutsideContent(let path): return "'\(path)' reaches outside the content folder"
        case .symlinkOutsideContent(let target): return "this symbolic link points outside the content folder (to '\(target)')"
        case .symlinkRefused(let reason): return "plein does not follow this symbolic link: \(reason)"
        case .hardLinkOutsideContent(let links):
            return "this file has \(links) names (hard links), not all of them in the content folder, so it could be any file on this machine: copy it into the content folder instead"
        case .unreadable(let reason): return "cannot read this file: \(reason)"
        case .missingFile(let name): return "'\(name)' is missing"
        case .templateSyntax(let text): return "template syntax: \(text)"
        case .missingTemplate(let name): return "the theme has no template '\(name)'"
        case .duplicateTemplate(let name, let other): return "template name '\(name)' is also used by \(other)"
        case .missingText(let key, let language): return "interface text '\(key)' is missing for language '\(language)'"

        case .missingField(let name): return "'\(name)' is required"
        case .unknownField(let name, _): return "unknown field '\(name)'"
        case .wrongType(let expected, let found): return "expected \(expected), found \(found)"
        case .invalidDate(let value, let reason): return "'\(value)' is not a valid date or time: \(reason)"
        case .missingUTCOffset(let value, let assumed):
            return "'\(value)' has no UTC offset; taken as \(assumed) (the site's time zone)"
        case .notAChoice(let value, let field, let choices, _):
            return "'\(value)' is not a valid \(field); use one of \(choices.map { "'\($0)'" }.joined(separator: ", "))"
        case .notPositive(let field, let value): return "'\(field)' must be a positive whole number, not \(value)"
        case .outOfRange(let field, let value, let range): return "\(field) \(value) is out of range (\(range))"
        case .invalidSlug(let id, _):
            return "'\(id)' is not a valid id: use lowercase letters a-z, digits and '-'"
        case .invalidEmail(let value): return "'\(value)' is not an e-mail address"
        case .invalidURL(let value, let reason): return "'\(value)' is not a valid URL: \(reason)"
        case .unknownTimeZone(let value, _): return "unknown time zone '\(value)'"
        case .invalidOpeningHours(let value):
            return "'\(value)' is not opening hours: write \"HH:MM-HH:MM\" or closed"
        case .invalidDays(let value, _):
            return "'\(value)' is not a day or day range: use mon, tue, wed, thu, fri, sat, sun or a range like mon-fri"
        case .dayGivenTwice(let day): return "opening hours for '\(day)' are given more than once"
        case .tooFewPoints(let field, let count, let minimum):
            return "'\(field)' has \(count) point\(count == 1 ? "" : "s"); a boundary needs at least \(minimum)"
        case .invalidFileName(let name, let expected): return "'\(name)' is not a valid file name: expected \(expected)"
        case .dateMismatch(let fileDate, let recordDate):
            return "the file name says \(fileDate) but 'at' is on \(recordDate)"
        case .cmsNeeds(let what): return "the CMS needs \(what)"
        case .plainInRepository(let what, let repository, _):
            return "the site \(what), but the repository \(repository) holds its files as plain text: if it is public, anyone can read them there"
        case .invalidIntegrity(let text):
            return "'\(text)' is not an integrity hash: expected sha384- and the base64 of the script's SHA-384"
        case .appIcon(let name, let reason): return "the app's icon \(name) cannot be made: \(reason)"
        case .invalidColour(let field, let value):
            return "'\(field)' is '\(value)': expected a colour as #rrggbb, such as #1d4ed8; the theme's colour is used"
        case .misplaced(let field, let value, let folder):
            return "'\(field)' says '\(value)', but the file is in \(folder)"

        case .idCollision(let id, let other): return "id '\(id)' collides with '\(other)' (ids are compared ignoring case)"
        case .reservedPageName(let id): return "a page named '\(id)' would be published at /\(id)/, which is the site's own"
        case .duplicateEmail(let email, let first): return "e-mail address '\(email)' is already used by member '\(first)'"
        case .duplicateGroupName(let name, let other): return "group name '\(name)' is already used by group '\(other)'"
        case .duplicateReport(let id, _): return "report '\(id)' is defined twice: as a file and as a bundle folder"
        case .duplicateEntry(let value, let field): return "'\(value)' appears more than once in '\(field)'"

        case .unknownReference(let kind, let id, _): return "unknown \(kind.rawValue) '\(id)'"
        case .unknownGroupMember(let id, _, let causes):
            return "unknown member '\(id)', so \(causes.count == 1 ? "one place names" : "\(causes.count) places name") someone outside this group: \(causes.joined(separator: ", "))"
        case .notGroupMember(let member, _, _): return "'\(member)' is not a member of this group"
        case .completionHalf(let present, let missing): return "'\(present)' is given without '\(missing)': give both or neither"
        case .completedBeforeAdded: return "the goal is completed before it was added"
        case .replyBeforeReport: return "this reply is dated before its report"
        case .eventEndsBeforeStart: return "the event ends before it starts"
        case .eventEndsWithoutStart: return "'ends' is given without 'starts'"
        case .eventFieldWithoutEvent(let field): return "'\(field)' is for events, and this report's category is not 'event'"
        case .checkOutBeforeCheckIn: return "check-out is not after check-in"
        case .overlappingCheckIns(let line): return "this check-in overlaps the one at line \(line)"
        case .overCapacity(let location, let open, let seats):
            return "\(open) members are checked in at '\(location)', which has \(seats) seat\(seats == 1 ? "" : "s")"
        case .tooFewParticipants(let count):
            return "a thread needs at least two participants, this one has \(count)"
        case .notParticipant(let author, _): return "'\(author)' is not a participant of this thread"
        case .imageTypeMismatch(let file, let declared, let actual):
            return "'\(file)' is named .\(declared) but holds \(actual) data"
        case .notAnImage(let file): return "'\(file)' is not a JPEG, PNG, WebP, HEIF or AVIF image"
        case .attachmentTakesOutput(let file, let output):
            return "'\(file)' would be published as \(output), which is the report's own: rename the file"
        case .attachmentMismatch(let file, let type):
            return "'\(file)' does not hold \(type), as its name says (its first bytes are something else): it is left out"
        case .corruptImage(let file, let reason): return "'\(file)' cannot be read as an image: \(reason)"
        case .tooManyPixels(let file, let width, let height, let limit):
            return "'\(file)' is \(width) × \(height) pixels, more than the limit of \(limit) (images.max_pixels in site.yaml)"
        case .corruptVideo(let file, let reason): return "'\(file)' cannot be read as a video: \(reason)"
        case .emptyVideo(let file): return "'\(file)' is a video of 0 seconds: it has no frame to show"
        case .videoTooLong(let file, let seconds, let limit):
            return "'\(file)' lasts \(seconds / 60) min \(seconds % 60) s; an album video may last at most \(limit / 60) minutes"
        case .videoWithoutFFmpeg(let file, let published):
            return published
                ? "ffmpeg is not installed, so '\(file)' is offered as a download (without its metadata) rather than played in the page; `make site` installs ffmpeg"
                : "ffmpeg is not installed, so '\(file)' is not published (a WebM's metadata cannot be removed without it); `make site` installs ffmpeg"
        case .groupWithoutMembers: return "this group has no members and will not be published"
        case .weakPassphrase(let group, let reason): return "the passphrase of members-only group '\(group)' is too weak: \(reason)"
        case .weakSecret(let reason):
            return "the thread secret (PLEIN_SECRET or --secret-file) is too weak to keep message threads' addresses and keys from being guessed: \(reason)"
        case .noPassphrase(let group, _):
            return "members-only group '\(group)' has no passphrase, so nothing of it is published"
        case .photoWithoutCaption(let file):
            return "\(FileRole.isVideo(FileRole.splitExtension(file).ext) ? "video" : "photo") '\(file)' has no caption (it is used as alt text)"
        case .emptyAlbum: return "this album has no photos"
        case .threadWithoutMessages: return "this thread has no messages"
        case .tallyWithoutTarget(let field): return "'\(field)' counts towards a 'target', which this goal does not have"
        case .categoryOff(let category, let allowed):
            return "'\(category)' is not one of this site's report categories (\(allowed.map { "'\($0)'" }.joined(separator: ", ")))"
        case .sectionOff(let section, let folder, let files):
            return "the \(files) file\(files == 1 ? "" : "s") in \(folder)/ \(files == 1 ? "is" : "are") not published: "
                + "site.yaml's 'sections' leaves out '\(section)'"
        case .divingCardsOff(let count):
            return "\(count) member\(count == 1 ? " has a diving card" : "s have diving cards"), which \(count == 1 ? "is" : "are") not published: "
                + "site.yaml's 'sections' leaves out 'divers'"
        case .placeholderLeft(let text): return "this still holds the placeholder '\(text)' that plein new wrote: it would be published as it is"
        case .tooManyEmphasisMarks(_, let limit):
            return "this paragraph holds more than \(limit) runs of * or _ (emphasis marks), which would take minutes to render: split it with blank lines, or write fewer"
        case .tooManyFootnoteReferences(_, let limit):
            return "this text refers to footnotes more than \(limit) times, and each reference gets a link back from its note: "
                + "the page would take megabytes and seconds to make; write fewer"
        case .nestedTooDeep(_, let limit):
            return "this line opens more than \(limit) lists or quotes inside each other, which would take minutes to render: write it with fewer"
        case .spaceInAddress(_, let address, _, let image):
            return "this \(image ? "image" : "link") is shown as text, as written: its address '\(address)' has a space, which Markdown does not take"
        case .registeredAddressInText(let member):
            return "this text holds the e-mail address of member '\(member)', and is published as written (plein publishes no address from a member's file): leave it out, or link to the member's page"
        case .checkInWhileClosed(let location, let day): return "'\(location)' is closed on \(day), but this check-in is on that day"
        case .unknownPhoto(let file, _, _): return "unknown photo '\(file)'"
        case .unknownLabel(let key, _): return "the theme has no interface text '\(key)', so this label is not used"
        case .labelLeavesPartners(let key, let word, let partners):
            let named = partners.prefix(4).map { "'\($0)'" }.joined(separator: ", ") + (partners.count > 4 ? " and \(partners.count - 4) more" : "")
            return "'\(key)' renames '\(word)', which \(named) still \(partners.count == 1 ? "says" : "say")"
        }
    }

    /// A hint that follows the message, such as "did you mean 'anna-de-vries'?".
    public var suggestion: String? {
        switch self {
        // No member of a name like it: most often one whose file was deleted when they left.
        case .unknownReference(.member, let id, nil) where !id.contains("@"):
            return "there is no \(ContentLayout.member(id)): if they left, keep their file with 'left: <date>' (a former member's posts stay, and they leave the lists)"
        case .unknownField(_, let s?), .notAChoice(_, _, _, let s?), .unknownReference(_, _, let s?),
             .notGroupMember(_, _, let s?), .notParticipant(_, let s?), .unknownTimeZone(_, let s?),
             .invalidDays(_, let s?), .unknownLabel(_, let s?):
            return "did you mean '\(s)'?"
        case .invalidSlug(_, let s) where !s.isEmpty:
            return "did you mean '\(s)'?"
        case .missingUTCOffset(_, let assumed):
            return "write the offset explicitly, e.g. '\(assumed)'"
        case .yamlMistake(_, let hint?):
            return hint
        case .unknownPhoto(_, let suggestion, let present):
            let listed = present.isEmpty ? "the album holds no photos" : "the album holds " + present.map { "'\($0)'" }.joined(separator: ", ")
            return suggestion.map { "did you mean '\($0)'? " + listed } ?? listed
        case .reservedPageName(let id):
            return "rename the file, e.g. pages/about-\(id).md"
        case .spaceInAddress(let written, let address, let title, _):
            let open = written.firstIndex(of: "(").map { written[...$0] } ?? "["
            let fixed = open + "<" + address + ">" + title + ")"
            return "write \(fixed), with the address in angle brackets, or rename the file without spaces"
        case .plainInRepository(_, _, let forge):
            let done = "then add 'repository_private: true' to site.yaml; or keep these files out of the repository"
            switch forge {
            case .github?:
                return "make the repository private (Settings → General → Danger Zone; GitHub Pages publishes from a private repository on a paid plan), \(done)"
            case .gitlab?:
                return "make the project private (Settings → General → Visibility; GitLab Pages publishes from a private project on every plan, with Pages visible to everyone), \(done)"
            case .gitea?, .forgejo?, nil:
                return "make the repository private, \(done)"
            }
        case .misplaced(let field, _, _):
            return "move the file to the folder '\(field)' names, or correct '\(field)' (it may also be left out)"
        case .tallyWithoutTarget:
            return "add 'target: <the total to reach>', or leave the tally out"
        case .categoryOff(let category, _):
            return "use one of them, or add '\(category)' to 'categories' in site.yaml"
        case .unknownGroupMember(_, let suggestion?, _):
            return "did you mean '\(suggestion)'? that fixes the others too"
        case .labelLeavesPartners(_, _, let partners):
            return "give \(partners.count == 1 ? "it a label" : "them labels") too, e.g. \(partners[0]): …"
        case .photoWithoutCaption(let file):
            return "give it one under 'photos': - {file: \(file), caption: …}"
        case .sectionOff(let section, _, _):
            return "add '\(section)' to 'sections' in site.yaml to publish them, or remove the files"
        case .unclosedFrontMatter:
            return "front matter ends at the first line that is exactly '---'"
        case .pathOutsideContent:
            return "name a file in the same folder, without '/' or '..'"
        case .replyBeforeReport(let event):
            return event
                ? "if 'at' is when the event happens: keep 'at' as when the report was posted and give the event's time as 'starts'"
                : "check the date; replies are shown in their own order either way"
        case .eventEndsBeforeStart:
            return "a date alone for 'ends' means the whole of that day; check both times and their UTC offsets"
        case .eventEndsWithoutStart:
            return "add 'starts' (when the event begins), or remove 'ends'"
        case .eventFieldWithoutEvent(let field):
            return "set 'category: event', or remove '\(field)'"
        case .weakPassphrase:
            return "`plein new passphrase` makes a strong one: give it to the group's members, and to the build in place of this one"
        case .weakSecret:
            return "`plein new secret` makes a strong one: give it to every build (CI's PLEIN_SECRET) in place of this one; threads' addresses change with it"
        case .noPassphrase(_, let variable):
            return "give it in \(variable), or in the file that --passphrases names; `plein new passphrase` makes one"
        default:
            return nil
        }
    }
}
