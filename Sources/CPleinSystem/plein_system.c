#define _GNU_SOURCE
#include "plein_system.h"
#include <ftw.h>
#include <sys/stat.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

int plein_exchange_paths(const char *first, const char *second) {
#ifdef SYS_renameat2
    /* RENAME_EXCHANGE is 2; glibc's renameat2 wrapper is not visible to Swift. */
    return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, 2U);
#else
    errno = ENOSYS;
    return -1;
#endif
}

void plein_line_buffered_stdout(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
}

static int remove_entry(const char *path, const struct stat *info, int type, struct FTW *ftw) {
    (void)info;
    (void)ftw;
    return type == FTW_DP ? rmdir(path) : unlink(path);
}

int plein_remove_tree(const char *path) {
    /* Depth first, without following symbolic links, with up to 64 open folders. */
    return nftw(path, remove_entry, 64, FTW_DEPTH | FTW_PHYS);
}


int plein_gunzip(const unsigned char *data, size_t size, unsigned char **out, size_t *out_size) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) return -1;
    size_t capacity = size * 4 + 1024, used = 0;
    unsigned char *buffer = malloc(capacity);
    if (!buffer) { inflateEnd(&stream); return -1; }
    stream.next_in = (unsigned char *)data;
    stream.avail_in = (uInt)size;
    int status;
    do {
        if (used == capacity) {
            capacity *= 2;
            unsigned char *bigger = realloc(buffer, capacity);
            if (!bigger) { free(buffer); inflateEnd(&stream); return -1; }
            buffer = bigger;
        }
        stream.next_out = buffer + used;
        stream.avail_out = (uInt)(capacity - used);
        status = inflate(&stream, Z_NO_FLUSH);
        used = capacity - stream.avail_out;
    } while (status == Z_OK);
    inflateEnd(&stream);
    if (status != Z_STREAM_END) { free(buffer); return -1; }
    *out = buffer;
    *out_size = used;
    return 0;
}

int plein_gzip(const unsigned char *data, size_t size, unsigned char **out, size_t *out_size) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    /* 16 + MAX_WBITS: a gzip wrapper; zlib writes its header with time 0 and no name. */
    if (deflateInit2(&stream, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
    size_t capacity = deflateBound(&stream, size) + 32;
    unsigned char *buffer = malloc(capacity);
    if (!buffer) { deflateEnd(&stream); return -1; }
    stream.next_in = (unsigned char *)data;
    stream.avail_in = (uInt)size;
    stream.next_out = buffer;
    stream.avail_out = (uInt)capacity;
    int status = deflate(&stream, Z_FINISH);
    size_t used = capacity - stream.avail_out;
    deflateEnd(&stream);
    if (status != Z_STREAM_END) { free(buffer); return -1; }
    *out = buffer;
    *out_size = used;
    return 0;
}

int plein_copy_file(int source, int target) {
    /* A reflink shares the blocks until either file is written (btrfs, XFS): no bytes copied. */
#ifdef FICLONE
    if (ioctl(target, FICLONE, source) == 0) return 0;
#endif
    off_t offset = 0;
    int in_kernel = 1;
    for (;;) {
        ssize_t n;
        if (in_kernel) {
            n = copy_file_range(source, &offset, target, NULL, 1 << 30, 0);
            if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP)) {
                in_kernel = 0;
                continue;
            }
        } else {
            char buffer[1 << 16];
            n = pread(source, buffer, sizeof buffer, offset);
            if (n > 0) {
                ssize_t done = 0;
                while (done < n) {
                    ssize_t m = write(target, buffer + done, (size_t)(n - done));
                    if (m < 0 && errno == EINTR) continue;
                    if (m < 0) return -1;
                    done += m;
                }
                offset += n;
            }
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) return 0;
    }
}

void plein_limit_malloc_arenas(void) {
#ifdef __GLIBC__
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    mallopt(M_ARENA_MAX, 2 * (cores > 2 ? (int)cores : 2));
#endif
}

int plein_first_changed_among(const char *root, const char *paths, size_t count, long long seconds, long nanoseconds, size_t *found) {
    int folder = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0) return -1;
    const char *path = paths;
    int result = 0;
    for (size_t index = 0; index < count; index++) {
        struct stat info;
        /* Gone, or changed after the time: someone else's doing. */
        if (fstatat(folder, path, &info, AT_SYMLINK_NOFOLLOW) != 0
            || info.st_ctim.tv_sec > seconds || (info.st_ctim.tv_sec == seconds && info.st_ctim.tv_nsec > nanoseconds)) {
            *found = index;
            result = 1;
            break;
        }
        path += strlen(path) + 1;
    }
    close(folder);
    return result;
}
