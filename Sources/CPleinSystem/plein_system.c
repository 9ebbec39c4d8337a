#define _GNU_SOURCE
#include "plein_system.h"
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
