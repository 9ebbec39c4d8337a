#ifndef PLEIN_SYSTEM_H
#define PLEIN_SYSTEM_H

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0, or -1 with errno set (ENOSYS or EINVAL where unsupported).
int plein_exchange_paths(const char *first, const char *second);

/// Removes a folder and everything in it (files, folders, links; symbolic links are not
/// followed). Returns 0, or -1 with errno set.
int plein_remove_tree(const char *path);

/// Makes standard output line-buffered, also when it is a pipe or a file.
void plein_line_buffered_stdout(void);

#endif
