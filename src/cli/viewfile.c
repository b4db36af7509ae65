// SPDX-License-Identifier: GPL-2.0-only
/*
 * viewfile: "@FILE" and "--view FILE" read as the options FILE holds.
 * See include/schedplot/cli/viewfile.h.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedplot/cli/cli.h"
#include "schedplot/cli/viewfile.h"

#define MAX_DEPTH	8
#define MAX_BYTES	(1 << 20)

struct words {
	char **v;
	int nr, alloc;
	char **texts;		/* the files' words, freed with the array */
	int nr_texts, alloc_texts;
};

static int push(struct words *w, char *s)
{
	if (w->nr + 2 > w->alloc) {
		int n = w->alloc ? w->alloc * 2 : 64;
		char **v = realloc(w->v, (size_t)n * sizeof(*v));

		if (!v)
			return sp_cli_fail(NULL, "out of memory");
		w->v = v;
		w->alloc = n;
	}
	w->v[w->nr++] = s;
	w->v[w->nr] = NULL;
	return 0;
}

static int keep_text(struct words *w, char *text)
{
	if (w->nr_texts == w->alloc_texts) {
		int n = w->alloc_texts ? w->alloc_texts * 2 : 8;
		char **t = realloc(w->texts, (size_t)n * sizeof(*t));

		if (!t) {
			free(text);
			return sp_cli_fail(NULL, "out of memory");
		}
		w->texts = t;
		w->alloc_texts = n;
	}
	w->texts[w->nr_texts++] = text;
	return 0;
}

/* The file's bytes, NUL-terminated (malloc'd), or NULL having said why. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f) {
		sp_cli_fail(path, "cannot read the view file: %s", strerror(errno));
		return NULL;
	}
	buf = malloc(MAX_BYTES + 1);
	n = buf ? fread(buf, 1, MAX_BYTES + 1, f) : 0;
	if (!buf || ferror(f) || n > MAX_BYTES) {
		sp_cli_fail(path, "%s", !buf ? "out of memory" : ferror(f) ?
			    "cannot read the view file" : "a view file of more than 1 MiB");
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static int add_args(struct words *w, const char *cmd, char **args, int nr, int depth);

/*
 * The installed views' folder, in @buf: beside the program's own folder,
 * as make install puts them (BINDIR/../share/schedplot/views), so that an
 * installation works wherever it was moved.  Return: @buf, or NULL.
 */
static const char *views_dir(char *buf, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	if ((size_t)snprintf(buf, size, "%s/../%s", exe, SP_VIEWS_SUBDIR) >= size)
		return NULL;
	return buf;
}

/*
 * A view file by its path, else, for a bare NAME no file has, the installed
 * view NAME or NAME.view.  Return: the path to read (@name itself when no
 * installed view has the name, so that the error names what was given).
 */
static const char *view_path(const char *name, char *buf, size_t size)
{
	char dir[PATH_MAX];
	static const char *const ext[] = { "", ".view" };

	if (strchr(name, '/') || !access(name, F_OK) || !views_dir(dir, sizeof(dir)))
		return name;
	for (size_t i = 0; i < sizeof(ext) / sizeof(*ext); i++)
		if ((size_t)snprintf(buf, size, "%s/%s%s", dir, name, ext[i]) < size &&
		    !access(buf, R_OK))
			return buf;
	return name;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A bare name that is neither a file nor an installed view: say which views there are. */
static int no_view(const char *name)
{
	char dir[PATH_MAX], list[512] = "";
	struct dirent *e;
	DIR *d = views_dir(dir, sizeof(dir)) ? opendir(dir) : NULL;
	size_t len = 0;
	char **names = NULL;
	size_t nr = 0;

	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char **grown;

		if (n <= 5 || strcmp(e->d_name + n - 5, ".view"))
			continue;
		grown = realloc(names, (nr + 1) * sizeof(*names));
		if (!grown)
			break;
		names = grown;
		names[nr] = strndup(e->d_name, n - 5);
		if (names[nr])
			nr++;
	}
	if (d)
		closedir(d);
	qsort(names, nr, sizeof(*names), cmp_name);
	for (size_t i = 0; i < nr; i++) {
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						i ? ", " : "", names[i]);
		free(names[i]);
	}
	free(names);
	if (nr)
		sp_cli_fail(name, "no such view file, nor an installed view of that name "
			    "(installed: %s)", list);
	else
		sp_cli_fail(name, "no such view file (and no views are installed beside the "
			    "program)");
	return SP_EXIT_USAGE;
}

/* The words of the file @path, each expanded in turn.  Return: 0 or SP_EXIT_USAGE. */
static int add_file(struct words *w, const char *cmd, const char *path, int depth)
{
	char *text, *p, *out, **words = NULL, found[PATH_MAX];
	int nr = 0, alloc = 0, line = 1, ret;

	if (depth >= MAX_DEPTH) {
		sp_cli_fail(path, "view files name each other more than %d deep", MAX_DEPTH);
		return SP_EXIT_USAGE;
	}
	path = view_path(path, found, sizeof(found));
	if (!strchr(path, '/') && access(path, F_OK))
		return no_view(path);
	text = slurp(path);
	if (!text)
		return SP_EXIT_USAGE;
	ret = keep_text(w, text);
	if (ret)
		return ret;
	/* words are unquoted in place: each is no longer than its text */
	for (p = out = text; *p;) {
		char *word;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			line += *p++ == '\n';
		if (!*p)
			break;
		if (*p == '#') {
			p += strcspn(p, "\n");
			continue;
		}
		word = out;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
			if (*p == '\'' || *p == '"') {
				int qline = line;
				char q = *p++;

				while (*p && *p != q) {
					if (q == '"' && *p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					line += *p == '\n';
					*out++ = *p++;
				}
				if (!*p) {
					free(words);
					sp_cli_fail(path, "line %d: a %s quote is not closed", qline,
						    q == '"' ? "double" : "single");
					return SP_EXIT_USAGE;
				}
				p++;
			} else {
				if (*p == '\\' && p[1])
					p++;
				*out++ = *p++;
			}
		}
		if (*p)
			line += *p == '\n', p++;
		*out++ = '\0';
		if (nr == alloc) {
			char **nw = realloc(words, (size_t)(alloc = alloc ? alloc * 2 : 16) *
					    sizeof(*nw));

			if (!nw) {
				free(words);
				return sp_cli_fail(NULL, "out of memory");
			}
			words = nw;
		}
		words[nr++] = word;
	}
	ret = add_args(w, cmd, words, nr, depth + 1);
	free(words);
	return ret;
}

static int add_args(struct words *w, const char *cmd, char **args, int nr, int depth)
{
	bool view_opt = strcmp(cmd, "compare") != 0;
	int i, ret = 0;

	for (i = 0; i < nr && !ret; i++) {
		const char *a = args[i];

		if (!strcmp(a, "--")) {
			for (; i < nr && !ret; i++)
				ret = push(w, args[i]);
			break;
		}
		if (a[0] == '@' && a[1]) {
			ret = add_file(w, cmd, a + 1, depth);
		} else if (view_opt && !strncmp(a, "--view=", 7)) {
			ret = add_file(w, cmd, a + 7, depth);
		} else if (view_opt && !strcmp(a, "--view")) {
			if (i + 1 == nr) {
				sp_cli_usage(cmd, "--view needs a file");
				return SP_EXIT_USAGE;
			}
			ret = add_file(w, cmd, args[++i], depth);
		} else {
			ret = push(w, args[i]);
		}
	}
	return ret;
}

int sp_viewfile_expand(const char *cmd, int *argc, char ***argv)
{
	struct words w = { 0 };
	bool any = false;
	char **out;
	int i, ret;

	for (i = 1; i < *argc && strcmp((*argv)[i], "--"); i++)
		any |= ((*argv)[i][0] == '@' && (*argv)[i][1]) ||
		       (strcmp(cmd, "compare") && !strncmp((*argv)[i], "--view", 6));
	if (!any)
		return 0;
	ret = push(&w, (*argv)[0]);
	if (!ret)
		ret = add_args(&w, cmd, *argv + 1, *argc - 1, 0);
	/* the words, NULL, then the files' texts they point into, NULL */
	out = ret ? NULL : calloc((size_t)w.nr + w.nr_texts + 2, sizeof(*out));
	if (!ret && !out)
		ret = sp_cli_fail(NULL, "out of memory");
	if (ret) {
		for (i = 0; i < w.nr_texts; i++)
			free(w.texts[i]);
	} else {
		memcpy(out, w.v, (size_t)w.nr * sizeof(*out));
		memcpy(out + w.nr + 1, w.texts, (size_t)w.nr_texts * sizeof(*out));
		*argc = w.nr;
		*argv = out;
	}
	free(w.texts);
	free(w.v);
	return ret;
}

void sp_viewfile_free(char **argv, char **orig)
{
	int i;

	if (!argv || argv == orig)
		return;
	for (i = 0; argv[i]; i++)
		;
	for (i++; argv[i]; i++)
		free(argv[i]);
	free(argv);
}
