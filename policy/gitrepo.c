/*
 * gitrepo.c - would git run a program here (see gitrepo.h)?  git reads its
 * configuration before it does anything, and many settings name a program
 * it then runs (core.fsmonitor, core.pager, pager.*, diff.external,
 * diff.*.textconv, filter.*.clean, credential.helper...), or another file
 * to read (include.path); hooks and submodules run more.
 *
 * Invariants: fail closed.  A setting counts as harmless only when it is
 * on the allow-list below (settings known to run nothing); any other key,
 * a line this parser does not understand, a file that is not a regular
 * file or cannot be read, a post-index-change hook, a submodule (git runs
 * itself there, with configuration not read here) or an index this code
 * cannot read makes the place a risk.  Every candidate repository from the
 * start directory up to / is looked at (git skips ones it finds invalid).
 * Files are opened non-blocking and bounded in size; nothing is written.
 */
#include "policy/gitrepo.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/policy.h"
#include "base/util.h"

/* A configuration file larger than this is not read (a risk). */
#define GITREPO_MAX_CONFIG	(1024 * 1024)
/* An index larger than this is not read (a risk): 256 MiB holds millions. */
#define GITREPO_MAX_INDEX	(256 * 1024 * 1024)

/*
 * The settings known to run no program and to name no other file to read
 * as configuration: "section.key", "section.*.key" (any subsection),
 * "section.*" (any key, no subsection), "section.*.*".
 */
static const char *const gitrepo_allowed[] = {
	"core.repositoryformatversion", "core.filemode", "core.bare",
	"core.logallrefupdates", "core.ignorecase", "core.precomposeunicode",
	"core.symlinks", "core.autocrlf", "core.eol", "core.safecrlf",
	"core.quotepath", "core.abbrev", "core.whitespace",
	"core.sharedrepository", "core.compression", "core.loosecompression",
	"core.bigfilethreshold", "core.checkstat", "core.trustctime",
	"core.untrackedcache", "core.commentchar", "core.warnambiguousrefs",
	"core.excludesfile", "core.preloadindex", "core.multipackindex",
	"core.deltabasecachesize", "core.packedgitlimit",
	"core.packedgitwindowsize",
	"extensions.worktreeconfig", "extensions.noop",
	"remote.*.url", "remote.*.pushurl", "remote.*.fetch", "remote.*.push",
	"remote.*.tagopt", "remote.*.prune", "remote.*.mirror",
	"remote.*.skipdefaultupdate", "remote.*.skipfetchall",
	"branch.*.remote", "branch.*.merge", "branch.*.rebase",
	"branch.*.pushremote", "branch.*.description",
	"branch.autosetupmerge", "branch.autosetuprebase", "branch.sort",
	"user.name", "user.email", "user.useconfigonly",
	"author.name", "author.email", "committer.name", "committer.email",
	"init.defaultbranch",
	"color.*", "color.*.*", "column.*", "advice.*",
	"status.showuntrackedfiles", "status.short", "status.branch",
	"status.relativepaths", "status.aheadbehind", "status.renames",
	"status.renamelimit", "status.showstash",
	"diff.renames", "diff.renamelimit", "diff.algorithm",
	"diff.mnemonicprefix", "diff.noprefix", "diff.context",
	"diff.interhunkcontext", "diff.colormoved", "diff.colormovedws",
	"diff.indentheuristic", "diff.statgraphwidth", "diff.relative",
	"diff.wserrorhighlight", "diff.suppressblankempty", "diff.dirstat",
	"diff.ignoresubmodules",
	"diff.*.xfuncname", "diff.*.funcname", "diff.*.wordregex",
	"diff.*.binary",
	"merge.conflictstyle", "merge.ff", "merge.log", "merge.renames",
	"merge.renamelimit", "merge.defaulttoupstream",
	"pull.rebase", "pull.ff", "push.default", "push.autosetupremote",
	"push.followtags", "fetch.prune", "fetch.prunetags", "fetch.parallel",
	"rebase.autostash", "rebase.autosquash", "rebase.updaterefs",
	"log.date", "log.decorate", "log.abbrevcommit", "log.follow",
	"log.mailmap", "log.showroot", "log.graphcolors",
	"blame.date", "blame.coloring", "blame.showemail", "blame.showroot",
	"blame.blankboundary", "blame.markignoredlines",
	"blame.markunblamablelines",
	"grep.linenumber", "grep.column", "grep.patterntype",
	"grep.extendedregexp", "grep.fullname", "grep.threads",
	"grep.fallbacktonoindex",
	"gc.auto", "gc.autodetach", "index.version", "feature.manyfiles",
	"commit.gpgsign", "commit.verbose", "tag.gpgsign", "tag.sort",
	"i18n.commitencoding", "i18n.logoutputencoding",
	"rerere.enabled", "rerere.autoupdate", "worktree.guessremote",
	"checkout.defaultremote", "safe.directory", "safe.barerepository",
	"maintenance.repo", "maintenance.auto", "maintenance.strategy",
	"protocol.version", "help.format",
	NULL
};

/* Does the allow-list entry e match section[.sub].key (lowercased)? */
static int
gitrepo_entry_matches(const char *e, const char *section, int has_sub,
    const char *key)
{
	const char	*dot = strchr(e, '.'), *last = strrchr(e, '.');
	size_t		 n = (size_t)(dot - e);

	if (strlen(section) != n || strncmp(e, section, n) != 0)
		return 0;
	if (has_sub != (dot != last))
		return 0;
	if (has_sub && (last - dot != 2 || dot[1] != '*'))
		return 0;
	return strcmp(last + 1, "*") == 0 || strcmp(last + 1, key) == 0;
}

/* Is section[.sub].key on the allow-list? */
static int
gitrepo_allowed_key(const char *section, int has_sub, const char *key)
{
	const char *const	*e;

	for (e = gitrepo_allowed; *e != NULL; e++) {
		if (gitrepo_entry_matches(*e, section, has_sub, key))
			return 1;
	}
	return 0;
}

/*
 * Read a whole file of at most max bytes without blocking.  0 with *out
 * (NUL-terminated, caller frees) and *n; -1 when it does not exist; -2 with
 * errno (EINVAL: not a regular file, EFBIG: too large) otherwise.
 */
static int
gitrepo_slurp(const char *path, size_t max, char **out, size_t *n)
{
	struct stat	 st;
	char		*b;
	size_t		 got = 0;
	ssize_t		 r;
	int		 fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd == -1)
		return errno == ENOENT || errno == ENOTDIR ? -1 : -2;
	if (fstat(fd, &st) != 0)
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = EINVAL;
	else if ((uintmax_t)st.st_size > max)
		e = EFBIG;
	else
		e = 0;
	if (e != 0) {
		close(fd);
		errno = e;
		return -2;
	}
	b = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		r = read(fd, b + got, (size_t)st.st_size - got);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	b[got] = '\0';
	*out = b;
	*n = got;
	return 0;
}

/* Say why a file cannot be vouched for after gitrepo_slurp failed. */
static void
gitrepo_unreadable(const char *path, char *why, size_t len)
{
	if (errno == EINVAL)
		snprintf(why, len, "git reads %s, not a regular file", path);
	else if (errno == EFBIG)
		snprintf(why, len, "git reads %s, too large to check", path);
	else
		snprintf(why, len, "git reads %s, which cannot be read "
		    "here: %s", path, strerror(errno));
}

/* Skip blanks (not newlines) from i. */
static size_t
gitrepo_blanks(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')
		i++;
	return i;
}

/*
 * Check the text of one configuration file: 0 when every line is a
 * comment, a section header or an allowed key; 1 with the reason.
 */
static int
gitrepo_config_text(const char *path, const char *s, size_t n,
    char *why, size_t len)
{
	char	section[64] = "", key[64];
	size_t	i = 0, k, line = 1;
	int	has_sub = 0, quoted;

	if (strlen(s) != n) {
		snprintf(why, len, "%s holds a NUL byte", path);
		return 1;
	}
	if (strncmp(s, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	for (;;) {
		i = gitrepo_blanks(s, i);
		if (s[i] == '\0')
			return 0;
		if (s[i] == '\n') {
			i++;
			line++;
			continue;
		}
		if (s[i] == '#' || s[i] == ';') {
			while (s[i] != '\0' && s[i] != '\n')
				i++;
			continue;
		}
		if (s[i] == '[') {
			/* [name], [name "sub"] or the old [name.sub]. */
			i++;
			for (k = 0; isalnum((unsigned char)s[i]) ||
			    s[i] == '-' || s[i] == '.'; i++) {
				if (s[i] == '.')
					break;
				if (k + 1 >= sizeof section)
					goto bad;
				section[k++] = (char)tolower((unsigned char)s[i]);
			}
			section[k] = '\0';
			has_sub = 0;
			if (k == 0)
				goto bad;
			if (s[i] == '.') {
				has_sub = 1;
				while (isalnum((unsigned char)s[i]) ||
				    s[i] == '-' || s[i] == '.')
					i++;
			} else if (s[i] == ' ' || s[i] == '\t') {
				i = gitrepo_blanks(s, i);
				if (s[i++] != '"')
					goto bad;
				has_sub = 1;
				while (s[i] != '"') {
					if (s[i] == '\0' || s[i] == '\n')
						goto bad;
					if (s[i] == '\\' && s[i + 1] != '\0' &&
					    s[i + 1] != '\n')
						i++;
					i++;
				}
				i++;
			}
			if (s[i++] != ']')
				goto bad;
			i = gitrepo_blanks(s, i);
			/* A key after the header on the same line: refuse. */
			if (s[i] != '\0' && s[i] != '\n' && s[i] != '#' &&
			    s[i] != ';')
				goto bad;
			continue;
		}
		if (!isalpha((unsigned char)s[i]) || section[0] == '\0')
			goto bad;
		for (k = 0; isalnum((unsigned char)s[i]) || s[i] == '-'; i++) {
			if (k + 1 >= sizeof key)
				goto bad;
			key[k++] = (char)tolower((unsigned char)s[i]);
		}
		key[k] = '\0';
		i = gitrepo_blanks(s, i);
		if (s[i] != '=' && s[i] != '\n' && s[i] != '\0' &&
		    s[i] != '#' && s[i] != ';')
			goto bad;
		if (!gitrepo_allowed_key(section, has_sub, key)) {
			snprintf(why, len, "%s sets %s%s.%s", path, section,
			    has_sub ? ".<name>" : "", key);
			return 1;
		}
		/* The value: to the end of the line, backslash-newline goes on. */
		quoted = 0;
		while (s[i] != '\0' && (s[i] != '\n' || quoted)) {
			if (s[i] == '\\' && s[i + 1] != '\0') {
				if (s[i + 1] == '\n')
					line++;
				i += 2;
				continue;
			}
			if (s[i] == '\n')
				goto bad;	/* newline inside quotes */
			if (s[i] == '"')
				quoted = !quoted;
			if (!quoted && (s[i] == '#' || s[i] == ';')) {
				while (s[i] != '\0' && s[i] != '\n')
					i++;
				break;
			}
			i++;
		}
	}
bad:
	snprintf(why, len, "%s:%zu: a line this check does not read", path,
	    line);
	return 1;
}

/* Check one configuration file; a missing one is no risk. */
static int
gitrepo_config(const char *path, char *why, size_t len)
{
	char	*text;
	size_t	 n;
	int	 rc;

	rc = gitrepo_slurp(path, GITREPO_MAX_CONFIG, &text, &n);
	if (rc == -1)
		return 0;
	if (rc == -2) {
		gitrepo_unreadable(path, why, len);
		return 1;
	}
	rc = gitrepo_config_text(path, text, n, why, len);
	free(text);
	return rc;
}

/* A big-endian 32-bit number. */
static uint32_t
gitrepo_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/*
 * Does the index at path list a submodule (a gitlink: git status runs git
 * in it) or point at a shared index (not read here)?  1 with the reason.
 */
static int
gitrepo_index(const char *path, char *why, size_t len)
{
	const unsigned char	*b, *q;
	char			*raw;
	size_t			 n, off, hdr, i;
	uint32_t		 ver, cnt, mode, size;
	int			 rc;

	rc = gitrepo_slurp(path, GITREPO_MAX_INDEX, &raw, &n);
	if (rc == -1)
		return 0;
	if (rc == -2) {
		gitrepo_unreadable(path, why, len);
		return 1;
	}
	b = (const unsigned char *)raw;
	if (n < 12 + 20 || memcmp(b, "DIRC", 4) != 0)
		goto bad;
	ver = gitrepo_be32(b + 4);
	cnt = gitrepo_be32(b + 8);
	if (ver < 2 || ver > 4)
		goto bad;
	n -= 20;	/* the trailing checksum */
	off = 12;
	for (i = 0; i < cnt; i++) {
		/* 40 bytes of stat data, a SHA-1, 2 bytes of flags. */
		if (n - off < 62)
			goto bad;
		mode = gitrepo_be32(b + off + 24);
		if ((mode & 0170000) == 0160000) {
			snprintf(why, len, "the repository has submodules; "
			    "git runs itself in them, with configuration not "
			    "checked here");
			free(raw);
			return 1;
		}
		hdr = 62;
		if (b[off + 60] & 0x40) {
			if (ver < 3)
				goto bad;
			hdr += 2;
		}
		if (n - off < hdr + 1)
			goto bad;
		if (ver == 4) {
			q = b + off + hdr;
			while (q < b + n && (*q & 0x80))
				q++;
			if (q >= b + n)
				goto bad;
			q = memchr(q + 1, '\0', (size_t)(b + n - (q + 1)));
			if (q == NULL)
				goto bad;
			off = (size_t)(q - b) + 1;
		} else {
			q = memchr(b + off + hdr, '\0', n - off - hdr);
			if (q == NULL)
				goto bad;
			off += (hdr + (size_t)(q - (b + off + hdr)) + 8) &
			    ~(size_t)7;
			if (off > n)
				goto bad;
		}
	}
	while (n - off >= 8) {
		size = gitrepo_be32(b + off + 4);
		if (memcmp(b + off, "link", 4) == 0) {
			snprintf(why, len, "%s is a split index, whose "
			    "shared part is not checked here", path);
			free(raw);
			return 1;
		}
		if (size > n - off - 8)
			goto bad;
		off += 8 + size;
	}
	free(raw);
	return 0;
bad:
	free(raw);
	snprintf(why, len, "%s: an index this check cannot read", path);
	return 1;
}

/* Does path exist (as anything, following symlinks)? */
static int
gitrepo_exists(const char *path)
{
	struct stat	st;

	return stat(path, &st) == 0 || errno != ENOENT;
}

/* dir/name, or name alone when it is absolute; caller frees. */
static char *
gitrepo_join(const char *dir, const char *name)
{
	if (name[0] == '/')
		return xstrdup(name);
	return xasprintf("%s/%s", dir, name);
}

/* The first line of a small file (gitdir:, commondir); NULL if missing. */
static int
gitrepo_line(const char *path, char **line, char *why, size_t len)
{
	size_t	n;
	int	rc;

	*line = NULL;
	rc = gitrepo_slurp(path, PATH_MAX + 16, line, &n);
	if (rc == -1)
		return 0;
	if (rc == -2) {
		gitrepo_unreadable(path, why, len);
		return 1;
	}
	(*line)[strcspn(*line, "\r\n")] = '\0';
	return 0;
}

/* Check one repository directory (a .git or a bare repository). */
static int
gitrepo_gitdir(const char *g, int depth, char *why, size_t len)
{
	static const char	*files[] = { "config", "config.worktree",
				    NULL };
	const char		**f;
	char			*p, *common = NULL;
	int			 risk = 0;

	for (f = files; *f != NULL && !risk; f++) {
		p = xasprintf("%s/%s", g, *f);
		risk = gitrepo_config(p, why, len);
		free(p);
	}
	if (!risk) {
		p = xasprintf("%s/hooks/post-index-change", g);
		if (gitrepo_exists(p)) {
			snprintf(why, len, "%s: git status and diff may run "
			    "this hook", p);
			risk = 1;
		}
		free(p);
	}
	if (!risk) {
		p = xasprintf("%s/modules", g);
		if (gitrepo_exists(p)) {
			snprintf(why, len, "%s: the repository has "
			    "submodules; git runs itself in them, with "
			    "configuration not checked here", p);
			risk = 1;
		}
		free(p);
	}
	if (!risk) {
		p = xasprintf("%s/index", g);
		risk = gitrepo_index(p, why, len);
		free(p);
	}
	if (!risk && depth == 0) {
		/* A linked worktree shares the main repository's files. */
		p = xasprintf("%s/commondir", g);
		risk = gitrepo_line(p, &common, why, len);
		free(p);
		if (!risk && common != NULL && common[0] != '\0') {
			p = gitrepo_join(g, common);
			risk = gitrepo_gitdir(p, 1, why, len);
			free(p);
		}
		free(common);
	}
	return risk;
}

/* The directory git starts in: place's cwd with argv's -C applied. */
static char *
gitrepo_start(char *const *argv, const char *cwd)
{
	char	*dir = xstrdup(cwd), *next;
	size_t	 i;

	for (i = 1; argv[i] != NULL && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-C") != 0 || argv[i + 1] == NULL)
			continue;
		i++;
		if (argv[i][0] == '\0')
			continue;
		next = gitrepo_join(dir, argv[i]);
		free(dir);
		dir = next;
	}
	return dir;
}

int
policy_git_repo_risk(char *const *argv, const struct policy_place *place,
    char *why, size_t len)
{
	const char	*cwd = ".", *home = getenv("HOME");
	const char	*sys = "/etc/gitconfig";
	char		*start, *dir, *p, *line, *slash;
	struct stat	 st;
	int		 risk;

	if (place != NULL) {
		cwd = place->cwd != NULL ? place->cwd : ".";
		home = place->home;
		if (place->system_config != NULL)
			sys = place->system_config;
	}
	start = gitrepo_start(argv, cwd);
	dir = realpath(start, NULL);
	if (dir == NULL) {
		risk = errno != ENOENT && errno != ENOTDIR;
		/* A directory that is not there holds no repository. */
		if (risk)
			snprintf(why, len, "cannot look at %s: %s", start,
			    strerror(errno));
		free(start);
		return risk;
	}
	free(start);

	/* Every candidate from dir up to /: DIR/.git, or DIR itself. */
	risk = 0;
	for (;;) {
		p = xasprintf("%s/.git", strcmp(dir, "/") == 0 ? "" : dir);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			risk = gitrepo_gitdir(p, 0, why, len);
		else if (stat(p, &st) == 0) {
			/* A gitfile: "gitdir: PATH". */
			risk = gitrepo_line(p, &line, why, len);
			if (!risk && line != NULL &&
			    strncmp(line, "gitdir: ", 8) == 0) {
				char	*g = gitrepo_join(dir, line + 8);

				risk = gitrepo_gitdir(g, 0, why, len);
				free(g);
			} else if (!risk) {
				snprintf(why, len, "%s: not a gitdir file "
				    "this check reads", p);
				risk = 1;
			}
			free(line);
		} else if (errno != ENOENT && errno != ENOTDIR) {
			gitrepo_unreadable(p, why, len);
			risk = 1;
		}
		free(p);
		if (!risk) {
			p = xasprintf("%s/HEAD", dir);
			if (gitrepo_exists(p))
				risk = gitrepo_gitdir(dir, 0, why, len);
			free(p);
		}
		if (risk || strcmp(dir, "/") == 0)
			break;
		slash = strrchr(dir, '/');
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	free(dir);
	if (risk)
		return 1;
	/* Then the person's and the system's (the most specific first). */
	if (home != NULL && home[0] != '\0') {
		p = xasprintf("%s/.gitconfig", home);
		risk = gitrepo_config(p, why, len);
		free(p);
		if (risk)
			return 1;
		p = xasprintf("%s/.config/git/config", home);
		risk = gitrepo_config(p, why, len);
		free(p);
		if (risk)
			return 1;
	}
	return gitrepo_config(sys, why, len);
}
