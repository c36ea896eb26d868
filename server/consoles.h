/*
 * consoles.h - the consoles of a server: each `ptyvisor attach` gets a
 * front end (tui/) drawn in memory and sent to its terminal or over its
 * control connection; keys and sizes come back (consoles.c says how).
 */
#ifndef PTYVISOR_CONSOLES_H
#define PTYVISOR_CONSOLES_H

#include <stdbool.h>
#include <stddef.h>

struct consoles;
struct control_hooks;
struct loop;
struct pty_size;
struct sessions;
struct tui_opts;

/*
 * The consoles of a server on loop over ss, each made with o (borrowed);
 * end(end_arg) when a console's person quits and chooses to end the
 * server, or kill-server asks.
 */
struct consoles	*consoles_new(struct loop *loop, struct sessions *ss,
		    const struct tui_opts *o, void (*end)(void *),
		    void *end_arg);
/*
 * Set the control server's console hooks to these consoles': a client's
 * attach gets a front end (drawn on its own terminal when it passed it).
 */
void		 consoles_hooks(struct consoles *cs, struct control_hooks *h);
size_t		 consoles_attached(const struct consoles *cs);
/* Front ends kept, attached or not. */
size_t		 consoles_count(const struct consoles *cs);
/* The size a new pane gets in an attached console; false: none is. */
bool		 consoles_next_size(const struct consoles *cs,
		    struct pty_size *size);
/* A line on every console's status line. */
void		 consoles_status(struct consoles *cs, const char *line);
/* Give every console's terminal back, telling its client why. */
void		 consoles_end_all(struct consoles *cs, const char *why);
void		 consoles_free(struct consoles *cs);

#endif
