#include "plein_vips.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>

/* libvips (and the hundred libraries it loads: codecs, GLib, ...) is opened when the first image
   is inspected or made, not when plein starts: binding them all took most of the 70 ms a plein
   command spent before its first instruction, and most builds and every `plein check` or `plein
   serve` edit of text need no image work at all. Its ABI is the one of its soname. */
#define PLEIN_VIPS_LIBRARY "libvips.so.42"
#define PLEIN_VIPS_FUNCTIONS(X) \
    X(vips_init) X(vips_concurrency_set) X(vips_cache_set_max) X(vips_version_string) X(vips_error_buffer) \
    X(vips_error_clear) X(vips_error) X(vips_image_get_typeof) X(vips_image_get_string) X(vips_image_get_int) \
    X(vips_image_get_width) X(vips_image_get_height) X(vips_image_new_from_file) X(vips_image_get_fields) \
    X(vips_image_remove) X(vips_copy) X(vips_autorot) X(vips_thumbnail) X(vips_thumbnail_image) X(vips_image_copy_memory) \
    X(vips_jpegsave) X(vips_pngsave) \
    X(vips_heifsave) X(vips_webpsave) X(g_object_unref) X(g_strfreev) X(g_log_set_handler)

#define PLEIN_DECLARE(name) static __typeof__(name) *plein_##name;
PLEIN_VIPS_FUNCTIONS(PLEIN_DECLARE)

/* Every call below goes through the pointer found when the library was opened. */
#define vips_init plein_vips_init
#define vips_concurrency_set plein_vips_concurrency_set
#define vips_cache_set_max plein_vips_cache_set_max
#define vips_version_string plein_vips_version_string
#define vips_error_buffer plein_vips_error_buffer
#define vips_error_clear plein_vips_error_clear
#define vips_error plein_vips_error
#define vips_image_get_typeof plein_vips_image_get_typeof
#define vips_image_get_string plein_vips_image_get_string
#define vips_image_get_int plein_vips_image_get_int
#define vips_image_get_width plein_vips_image_get_width
#define vips_image_get_height plein_vips_image_get_height
#define vips_image_new_from_file plein_vips_image_new_from_file
#define vips_image_get_fields plein_vips_image_get_fields
#define vips_image_remove plein_vips_image_remove
#define vips_copy plein_vips_copy
#define vips_autorot plein_vips_autorot
#define vips_thumbnail plein_vips_thumbnail
#define vips_thumbnail_image plein_vips_thumbnail_image
#define vips_image_copy_memory plein_vips_image_copy_memory
#define vips_jpegsave plein_vips_jpegsave
#define vips_pngsave plein_vips_pngsave
#define vips_heifsave plein_vips_heifsave
#define vips_webpsave plein_vips_webpsave
#define g_object_unref plein_g_object_unref
#define g_strfreev plein_g_strfreev
#define g_log_set_handler plein_g_log_set_handler

static int started = 0;
static char start_error[512];

/* Opens libvips and finds every function plein calls; -1, with the reason in `start_error`,
   when the library or one of them is missing. */
static int open_library(void) {
    void *library = dlopen(PLEIN_VIPS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(start_error, sizeof(start_error), "%s (Debian package libvips42)", why ? why : PLEIN_VIPS_LIBRARY " cannot be opened");
        return -1;
    }
#define PLEIN_FIND(name) \
    if (!(plein_##name = (__typeof__(plein_##name))dlsym(library, #name))) { \
        snprintf(start_error, sizeof(start_error), PLEIN_VIPS_LIBRARY " has no %s", #name); \
        return -1; \
    }
    PLEIN_VIPS_FUNCTIONS(PLEIN_FIND)
    return 0;
}

/* libvips reports recoverable trouble through GLib warnings on stderr; plein reports problems as
   diagnostics instead, so the terminal stays readable. */
static void quiet(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

int plein_vips_start(void) {
    if (started) return 0;
    if (open_library()) return -1;
    if (vips_init("plein")) {
        snprintf(start_error, sizeof(start_error), "libvips did not start: %s", vips_error_buffer());
        return -1;
    }
    /* plein runs one job per core itself; the operation cache would only hold memory. */
    vips_concurrency_set(1);
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, quiet, NULL);
    vips_cache_set_max(0);
    started = 1;
    return 0;
}

const char *plein_vips_version(void) {
    return started ? vips_version_string() : NULL;
}

const char *plein_vips_start_error(void) {
    return start_error;
}

/* libvips keeps one error buffer for the whole process: every thread's failures land in it, so
   the first line may be another image's. Under a lock, the line that names this file is taken,
   else the first that names no file, and the buffer is cleared. */
static pthread_mutex_t error_lock = PTHREAD_MUTEX_INITIALIZER;

static void take_error(const char *path, char *error, size_t size) {
    pthread_mutex_lock(&error_lock);
    const char *buffer = vips_error_buffer();
    const char *base = path ? strrchr(path, '/') : NULL;
    base = base ? base + 1 : path;
    const char *chosen = NULL, *plain = NULL;
    size_t chosen_length = 0, plain_length = 0;
    for (const char *line = buffer; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        int names_file = memchr(line, '"', length) != NULL || memchr(line, '/', length) != NULL;
        if (!chosen && base && *base) {
            for (const char *p = line; p + strlen(base) <= line + length; p++) {
                if (!strncmp(p, base, strlen(base))) { chosen = line; chosen_length = length; break; }
            }
        }
        if (!plain && !names_file && length > 0) { plain = line; plain_length = length; }
        line = end ? end + 1 : NULL;
    }
    if (!chosen) { chosen = plain; chosen_length = plain_length; }
    if (chosen) snprintf(error, size, "%.*s", (int)chosen_length, chosen);
    else snprintf(error, size, "libvips failed");
    vips_error_clear();
    pthread_mutex_unlock(&error_lock);
}

/* Whether a JPEG file holds its whole image: after its first scan (SOS), the end marker FFD9
   (inside compressed data a 0xFF is always followed by 0x00 or a restart marker, so the first
   FFD9 there is the end). A file cut short decodes with an error the build refuses; plein check
   reads only headers, so this is what makes it see the same. Data after the end (a phone's
   motion video) is allowed. */
static int jpeg_complete(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return 0;
    unsigned char head[4];
    int complete = 0;
    if (fread(head, 1, 2, file) != 2 || head[0] != 0xFF || head[1] != 0xD8) { fclose(file); return 0; }
    /* Segment by segment to the first scan. */
    for (;;) {
        int c = fgetc(file);
        if (c == EOF) { fclose(file); return 0; }
        if (c != 0xFF) continue;
        int marker;
        do { marker = fgetc(file); } while (marker == 0xFF);
        if (marker == EOF) { fclose(file); return 0; }
        if (marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01) continue;
        if (marker == 0xD9) { fclose(file); return 0; }
        unsigned char length[2];
        if (fread(length, 1, 2, file) != 2) { fclose(file); return 0; }
        long size = (length[0] << 8 | length[1]) - 2;
        if (size < 0 || fseek(file, size, SEEK_CUR)) { fclose(file); return 0; }
        if (marker == 0xDA) break;
    }
    unsigned char buffer[65536];
    int previous = 0;
    size_t read;
    while (!complete && (read = fread(buffer, 1, sizeof(buffer), file)) > 0) {
        for (size_t i = 0; i < read; i++) {
            if (previous == 0xFF && buffer[i] == 0xD9) { complete = 1; break; }
            previous = buffer[i];
        }
    }
    fclose(file);
    return complete;
}

/* EXIF strings come back as "value (value, Type, n components, m bytes)". */
static void exif_value(VipsImage *image, const char *name, char *out, size_t size) {
    const char *text = NULL;
    out[0] = '\0';
    if (!vips_image_get_typeof(image, name) || vips_image_get_string(image, name, &text) || !text) return;
    const char *cut = strstr(text, " (");
    size_t length = cut ? (size_t)(cut - text) : strlen(text);
    if (length >= size) length = size - 1;
    memcpy(out, text, length);
    out[length] = '\0';
}

/* "52/1 31/1 617/50" → degrees. */
static int parse_rationals(const char *text, double *degrees) {
    double parts[3] = {0, 0, 0};
    int count = 0;
    const char *p = text;
    while (*p && count < 3) {
        char *end;
        double numerator = strtod(p, &end);
        if (end == p) return -1;
        p = end;
        double denominator = 1;
        if (*p == '/') {
            p++;
            denominator = strtod(p, &end);
            if (end == p) return -1;
            p = end;
        }
        if (denominator == 0) return -1;
        parts[count++] = numerator / denominator;
        while (*p == ' ') p++;
    }
    if (count == 0) return -1;
    *degrees = parts[0] + parts[1] / 60.0 + parts[2] / 3600.0;
    return 0;
}

/* Sequential access reads the header cheaply; rotating a whole image needs random access. */
static VipsImage *open_image(const char *path, int sequential, char *error, size_t size) {
    VipsImage *image = vips_image_new_from_file(
        path, "access", sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (!image) take_error(path, error, size);
    return image;
}

int plein_image_info_read(const char *path, plein_image_info *info, char *error, size_t error_size) {
    memset(info, 0, sizeof(*info));
    VipsImage *image = open_image(path, 1, error, error_size);
    if (!image) return -1;

    int orientation = 1;
    if (vips_image_get_typeof(image, VIPS_META_ORIENTATION) &&
        vips_image_get_int(image, VIPS_META_ORIENTATION, &orientation)) orientation = 1;
    if (orientation < 1 || orientation > 8) orientation = 1;
    info->orientation = orientation;
    int swap = orientation >= 5;
    info->width = swap ? vips_image_get_height(image) : vips_image_get_width(image);
    info->height = swap ? vips_image_get_width(image) : vips_image_get_height(image);

    const char *loader = NULL;
    if (!vips_image_get_string(image, VIPS_META_LOADER, &loader) && loader) {
        if (strstr(loader, "jpeg")) snprintf(info->format, sizeof(info->format), "jpeg");
        else if (strstr(loader, "png")) snprintf(info->format, sizeof(info->format), "png");
        else if (strstr(loader, "webp")) snprintf(info->format, sizeof(info->format), "webp");
        else if (strstr(loader, "heif")) {
            const char *compression = NULL;
            int av1 = vips_image_get_typeof(image, "heif-compression") &&
                      !vips_image_get_string(image, "heif-compression", &compression) && compression && !strcmp(compression, "av1");
            snprintf(info->format, sizeof(info->format), av1 ? "avif" : "heif");
        }
    }

    if (!strcmp(info->format, "jpeg") && !jpeg_complete(path)) {
        g_object_unref(image);
        snprintf(error, error_size, "the file ends before its image does (cut short while it was copied or uploaded?)");
        return -1;
    }

    exif_value(image, "exif-ifd2-DateTimeOriginal", info->taken, sizeof(info->taken));
    exif_value(image, "exif-ifd2-OffsetTimeOriginal", info->offset, sizeof(info->offset));

    char latitude[64], longitude[64], latitude_ref[8], longitude_ref[8];
    exif_value(image, "exif-ifd3-GPSLatitude", latitude, sizeof(latitude));
    exif_value(image, "exif-ifd3-GPSLongitude", longitude, sizeof(longitude));
    exif_value(image, "exif-ifd3-GPSLatitudeRef", latitude_ref, sizeof(latitude_ref));
    exif_value(image, "exif-ifd3-GPSLongitudeRef", longitude_ref, sizeof(longitude_ref));
    double lat, lon;
    if (latitude[0] && longitude[0] && !parse_rationals(latitude, &lat) && !parse_rationals(longitude, &lon)) {
        if (latitude_ref[0] == 'S') lat = -lat;
        if (longitude_ref[0] == 'W') lon = -lon;
        if (lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180) {
            info->has_gps = 1;
            info->latitude = lat;
            info->longitude = lon;
        }
    }

    char make[48], model[64];
    exif_value(image, "exif-ifd0-Make", make, sizeof(make));
    exif_value(image, "exif-ifd0-Model", model, sizeof(model));
    if (make[0] && model[0] && strncmp(model, make, strlen(make)) != 0)
        snprintf(info->camera, sizeof(info->camera), "%s %s", make, model);
    else
        snprintf(info->camera, sizeof(info->camera), "%s", model[0] ? model : make);

    g_object_unref(image);
    return 0;
}

/* libvips 8.14.1's webpsave ignores "strip" and writes the source's EXIF (GPS included), so
   metadata is removed from the image itself before any save. */
static int save_clean(VipsImage *image, const char *out, int format, int quality);

static int strip_metadata(VipsImage *in, VipsImage **out) {
    if (vips_copy(in, out, NULL)) return -1;
    gchar **fields = vips_image_get_fields(*out);
    for (int i = 0; fields[i]; i++) {
        const char *name = fields[i];
        if (!strncmp(name, "exif-", 5) || !strncmp(name, "xmp-", 4) || !strncmp(name, "iptc-", 5) ||
            !strcmp(name, "orientation") || !strncmp(name, "png-comment", 11) || !strncmp(name, "gif-comment", 11) ||
            !strcmp(name, "jpeg-comment") || !strcmp(name, "jpeg-thumbnail-data") || !strncmp(name, "heif-", 5)) {
            vips_image_remove(*out, name);
        }
    }
    g_strfreev(fields);
    return 0;
}

static unsigned int le32(const unsigned char *p) {
    return (unsigned int)p[0] | (unsigned int)p[1] << 8 | (unsigned int)p[2] << 16 | (unsigned int)p[3] << 24;
}

static void put_le32(unsigned char *p, unsigned int v) {
    p[0] = v & 0xFF; p[1] = (v >> 8) & 0xFF; p[2] = (v >> 16) & 0xFF; p[3] = (v >> 24) & 0xFF;
}

/* Even with no metadata fields left, libvips 8.14.1 writes a fresh EXIF chunk into WebP files.
   Rewrite the RIFF container without its EXIF and XMP chunks and clear their VP8X flags. */
static int webp_remove_metadata(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    if (fseek(f, 0, SEEK_END)) { fclose(f); return -1; }
    long size = ftell(f);
    if (size < 12 || fseek(f, 0, SEEK_SET)) { fclose(f); return -1; }
    unsigned char *in = malloc((size_t)size), *out = malloc((size_t)size);
    if (!in || !out || fread(in, 1, (size_t)size, f) != (size_t)size) { fclose(f); free(in); free(out); return -1; }
    fclose(f);
    if (memcmp(in, "RIFF", 4) || memcmp(in + 8, "WEBP", 4)) { free(in); free(out); return -1; }
    memcpy(out, in, 12);
    size_t at = 12, written = 12;
    unsigned char *vp8x = NULL;
    while (at + 8 <= (size_t)size) {
        unsigned int length = le32(in + at + 4);
        size_t padded = 8 + (size_t)length + (length & 1);
        if (at + padded > (size_t)size) break;
        if (!memcmp(in + at, "EXIF", 4) || !memcmp(in + at, "XMP ", 4)) { at += padded; continue; }
        memcpy(out + written, in + at, padded);
        if (!memcmp(in + at, "VP8X", 4) && length >= 1) vp8x = out + written + 8;
        written += padded;
        at += padded;
    }
    if (vp8x) vp8x[0] &= (unsigned char)~(0x08 | 0x04);
    put_le32(out + 4, (unsigned int)(written - 8));
    f = fopen(path, "wb");
    int failed = !f || fwrite(out, 1, written, f) != written;
    if (f && fclose(f)) failed = 1;
    free(in);
    free(out);
    return failed ? -1 : 0;
}

static int save(VipsImage *image, const char *out, int format, int quality) {
    VipsImage *clean = NULL;
    if (strip_metadata(image, &clean)) return -1;
    int failed = save_clean(clean, out, format, quality);
    g_object_unref(clean);
    if (!failed && format == PLEIN_FORMAT_WEBP && webp_remove_metadata(out)) {
        vips_error("plein", "cannot remove metadata from %s", out);
        return -1;
    }
    return failed;
}

static int save_clean(VipsImage *image, const char *out, int format, int quality) {
    switch (format) {
    case PLEIN_FORMAT_JPEG:
        return vips_jpegsave(image, out, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, "interlace", TRUE, NULL);
    case PLEIN_FORMAT_PNG:
        return vips_pngsave(image, out, "strip", TRUE, "compression", 6, NULL);
    case PLEIN_FORMAT_AVIF:
        /* Effort 1 of 9 (VariantSpec.avifEffort): on one core, a 1280 px photo takes about
           what WebP takes (0.3 s) for a sixth of its bytes; effort 2 doubles the time for 8 %
           fewer bytes, libvips' default (4) takes eight times as long. */
        return vips_heifsave(image, out, "Q", quality, "strip", TRUE, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1,
                             "effort", 1, NULL);
    default:
        return vips_webpsave(image, out, "Q", quality, "strip", TRUE, "effort", 4, NULL);
    }
}

int plein_image_write(const char *path, const char *out, int width, int square, int format, int quality,
                      int *out_width, int *out_height, char *error, size_t error_size) {
    VipsImage *result = NULL;
    int failed;
    if (width > 0 && square) {
        failed = vips_thumbnail(path, &result, width, "height", width, "crop", VIPS_INTERESTING_ATTENTION,
                                "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    } else if (width > 0) {
        failed = vips_thumbnail(path, &result, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN,
                                "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    } else {
        VipsImage *image = open_image(path, 0, error, error_size);
        if (!image) return -1;
        failed = vips_autorot(image, &result, NULL);
        g_object_unref(image);
    }
    if (failed || !result) {
        take_error(path, error, error_size);
        return -1;
    }
    if (save(result, out, format, quality)) {
        take_error(path, error, error_size);
        g_object_unref(result);
        return -1;
    }
    *out_width = vips_image_get_width(result);
    *out_height = vips_image_get_height(result);
    g_object_unref(result);
    return 0;
}

int plein_image_write_widths(const char *path, int count, const int *widths, const int *formats, const int *qualities,
                             const char *const *outs, int *out_widths, int *out_heights, char *error, size_t error_size) {
    int widest = 0;
    for (int i = 0; i < count; i++) if (widths[i] > widest) widest = widths[i];
    if (count < 1 || widest < 1) {
        snprintf(error, error_size, "no width to make");
        return -1;
    }
    /* The widest once from the file (shrunk while it is read), held in memory; the others from it. */
    VipsImage *read = NULL;
    if (vips_thumbnail(path, &read, widest, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, "fail_on", VIPS_FAIL_ON_ERROR, NULL) || !read) {
        take_error(path, error, error_size);
        return -1;
    }
    VipsImage *base = vips_image_copy_memory(read);
    g_object_unref(read);
    if (!base) {
        take_error(path, error, error_size);
        return -1;
    }
    int failed = 0;
    for (int i = 0; i < count && !failed; i++) {
        VipsImage *result = NULL;
        if (widths[i] >= vips_image_get_width(base)) {
            if (vips_copy(base, &result, NULL)) result = NULL;
        } else if (vips_thumbnail_image(base, &result, widths[i], "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, NULL)) {
            result = NULL;
        }
        if (!result || save(result, outs[i], formats[i], qualities[i])) {
            take_error(path, error, error_size);
            failed = 1;
        } else {
            out_widths[i] = vips_image_get_width(result);
            out_heights[i] = vips_image_get_height(result);
        }
        if (result) g_object_unref(result);
    }
    g_object_unref(base);
    return failed ? -1 : 0;
}
