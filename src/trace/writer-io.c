// SPDX-License-Identifier: GPL-2.0-only
/*
 * writer-io: the writes under the trace writer, the spool's at an offset
 * and the output's front to back, with one loop that finishes them.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "schedplot/base/error.h"
#include "writer-io.h"

int sp_wio_write(int fd, const void *data, size_t len, uint64_t off)
{
	const char *p = data;
	ssize_t n;

	while (len) {
		if (off == SP_WIO_SEQUENTIAL)
			n = write(fd, p, len);
		else
			n = pwrite(fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOSPC;
		p += n;
		len -= n;
		if (off != SP_WIO_SEQUENTIAL)
			off += n;
	}
	return 0;
}

int sp_wio_error(struct sp_error *err, int ret, const char *what)
{
	if (ret == -ENOSPC)
		return sp_error_set(err, ret, -1, "cannot write %s: no space left on the device", what);
	return sp_error_set(err, ret, -1, "cannot write %s: %s", what, strerror(-ret));
}
