#ifndef PLEIN_SYSTEM_H
#define PLEIN_SYSTEM_H

#include <stddef.h>

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0, or -1 with errno set (ENOSYS or EINVAL where unsupported).
int plein_exchange_paths(const char *first, const char *second);

/// Removes a folder and everything in it (files, folders, links; symbolic links are not
/// followed). Returns 0, or -1 with errno set.
int plein_remove_tree(const char *path);

/// Whether one of the `count` files at `paths` (relative to the folder `root`, each ended by a NUL
/// byte) is gone, or changed after the time given by its change time (ctime, which every write,
/// new link or change of mode moves): 1 with its index in `found`, 0 when none is, -1 when `root`
/// cannot be opened.
int plein_first_changed_among(const char *root, const char *paths, size_t count, long long seconds, long nanoseconds, size_t *found);

/// Copies the whole of `source` (from its start) into `target` from its start (an empty file, or
/// one the caller then cuts to the copy's length): a reflink where
/// the file system has them, else a copy in the kernel, else reads and writes. Returns 0, or -1
/// with errno set. The two never share storage that a write to one would change in the other.
int plein_copy_file(int source, int target);

/// Makes standard output line-buffered, also when it is a pipe or a file.
void plein_line_buffered_stdout(void);

/// Limits glibc's malloc to two arenas per core (its default is eight per core): each thread
/// that waits on a helper process (Pagefind, ffmpeg) would otherwise get an arena of its own,
/// which raises a build's peak memory for no speed. Not one per core: with the threads that read
/// the build store, the two that render then shared one arena and waited on its lock (a build
/// after an edit of the site's title at 10,000 reports: 5.7–6.6 s, with two per core 4.2–5.0 s,
/// as fast as with four; a fresh build with search at 10,000 reports peaks at 460 MB with one
/// per core, 485 with two, 515 with four). Does nothing elsewhere.
void plein_limit_malloc_arenas(void);

#include <stddef.h>

/// Decompresses gzip data into a buffer it allocates (`*out`, `*out_size`; free it with
/// free()). Returns 0, or -1 when the data is not whole, valid gzip.
int plein_gunzip(const unsigned char *data, size_t size, unsigned char **out, size_t *out_size);

/// Compresses data as gzip with a fixed header (no name, no time): the same bytes always give
/// the same file. Returns 0, or -1.
int plein_gzip(const unsigned char *data, size_t size, unsigned char **out, size_t *out_size);

#endif
