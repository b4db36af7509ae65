/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_VIEWFILE_H
#define SP_VIEWFILE_H

/*
 * View files: options kept in a file and read in place of "@FILE" (as gcc
 * and many tools take response files) or of "--view FILE", so that a
 * visualization (its --mark and --span definitions, its colors, window and
 * size) is written once and used on every trace.  The file holds options
 * and their values separated by white space, quoted as in a shell ('...'
 * as it is, "..." with \" and \\, \ before any other character);
 * a word that begins with # comments out the rest of its line.  A view
 * file may name other view files, 8 deep at most.  A bare NAME that no
 * file has is looked up among the installed views (contrib/views, which
 * make install puts in PREFIX/share/schedplot/views): NAME or NAME.view in
 * SP_VIEWS_SUBDIR beside the program's folder.
 */

/* The installed views, relative to the folder above the program's (BINDIR/..). */
#define SP_VIEWS_SUBDIR "share/schedplot/views"

/**
 * sp_viewfile_expand - replace each "@FILE" and "--view FILE" by what FILE holds
 * @cmd: the subcommand; compare keeps its own --view (a kind of figure)
 * @argc: in: the arguments from the subcommand's name on; out: after expansion
 * @argv: likewise; out: a new array (sp_viewfile_free()) when anything was expanded
 *
 * Arguments after "--" are left alone (record's command).  Says what is
 * wrong (a file that cannot be read, a quote not closed) in one line.
 *
 * Return: 0, or SP_EXIT_USAGE.
 */
int sp_viewfile_expand(const char *cmd, int *argc, char ***argv);

/**
 * sp_viewfile_free - free an array sp_viewfile_expand() made (NULL is fine)
 * @argv: the array it returned, or the caller's own (then nothing is done)
 * @orig: the caller's own array
 */
void sp_viewfile_free(char **argv, char **orig);

#endif /* SP_VIEWFILE_H */
