/*
 * assets.h - the page's files built into the binary (web/page/, made into
 * web/assets.c by web/embed.sh at build time), so the approval page needs
 * nothing installed beside the binary.
 */
#ifndef PTYVISOR_WEB_ASSETS_H
#define PTYVISOR_WEB_ASSETS_H

#include <stddef.h>

/* One file: the path it is served at, its type and its bytes. */
struct web_asset {
	const char		*path;
	const char		*type;
	const unsigned char	*data;
	size_t			 len;
};

/* Every file, then one whose path is NULL. */
extern const struct web_asset	web_assets[];

#endif
