/* The list every system's procfd_list builds, whatever the system. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "tach/procfd.h"

struct procfd_file *
procfd_grow(struct procfd_file **files, size_t *n, size_t *room)
{
	struct procfd_file *more;
	size_t want = *room ? *room * 2 : 16;

	if (*n == *room) {
		if (want > SIZE_MAX / sizeof(**files)) {
			errno = ENOMEM;
			return NULL;
		}
		if ((more = realloc(*files, want * sizeof(**files))) == NULL)
			return NULL;
		*files = more;
		*room = want;
	}
	return &(*files)[(*n)++];
}

int
procfd_end(struct procfd_file **files, size_t *n, int error)
{
	if (error != 0) {
		procfd_free(*files, *n);
		*files = NULL;
		*n = 0;
	}
	return error;
}

bool
procfd_skip(int error)
{
	return error != EACCES && error != EPERM && error != ENOMEM;
}

void
procfd_free(struct procfd_file *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i].path);
	free(files);
}
