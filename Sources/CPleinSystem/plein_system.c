#define _GNU_SOURCE
#include "plein_system.h"
#include <ftw.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <unistd.h>

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

