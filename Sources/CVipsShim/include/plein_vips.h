#ifndef PLEIN_VIPS_SHIM_H
#define PLEIN_VIPS_SHIM_H

#include <stddef.h>

/// Fixed-argument wrappers over libvips, whose useful calls are variadic and so cannot be
/// called from Swift. No libvips type crosses this boundary: only paths and plain structs.

/// What plein needs to know about an image without decoding its pixels.
typedef struct {
    int width;          /* after EXIF orientation */
    int height;
    int orientation;    /* EXIF 1-8, 1 when absent */
    char format[8];     /* "jpeg", "png", "webp", "heif", "avif" or "" */
    char taken[32];     /* DateTimeOriginal "YYYY:MM:DD HH:MM:SS", or "" */
    char offset[8];     /* OffsetTimeOriginal "+02:00", or "" */
    int has_gps;
    double latitude;
    double longitude;
    char camera[96];    /* "Make Model", or "" */
} plein_image_info;

/// Opens libvips (libvips.so.42, with dlopen) and starts it, once; 0 on success.
int plein_vips_start(void);

/// Why `plein_vips_start` failed ("" when it did not).
const char *plein_vips_start_error(void);

/// "8.14.1": part of every cache key, so a libvips upgrade remakes the images.
const char *plein_vips_version(void);

/// Reads the header and EXIF of `path`. Returns 0, or -1 with a message in `error`.
int plein_image_info_read(const char *path, plein_image_info *info, char *error, size_t error_size);

/// Output formats.
enum { PLEIN_FORMAT_WEBP = 0, PLEIN_FORMAT_JPEG = 1, PLEIN_FORMAT_PNG = 2, PLEIN_FORMAT_AVIF = 3 };

/// Writes a copy of `path` to `out`, upright and without metadata, `width` pixels wide (never
/// wider than the original; 0 keeps the original size). With `square`, the image is cropped to
/// `width` × `width` around its most interesting part. The size written is returned in
/// `out_width` and `out_height`. Returns 0, or -1 with a message in `error`.
int plein_image_write(const char *path, const char *out, int width, int square, int format, int quality,
                      int *out_width, int *out_height, char *error, size_t error_size);

/// Writes copies of `path` at each of `count` widths (never wider than the original), upright and
/// without metadata, to `outs[i]` in `formats[i]` at `qualities[i]`: the widest read from the file
/// once, the others made from it. The sizes written are returned in `out_widths` and
/// `out_heights`. Returns 0, or -1 with a message in `error` (files already written stay).
int plein_image_write_widths(const char *path, int count, const int *widths, const int *formats, const int *qualities,
                             const char *const *outs, int *out_widths, int *out_heights, char *error, size_t error_size);

#endif
