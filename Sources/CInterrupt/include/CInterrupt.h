#ifndef SHELF_CINTERRUPT_H
#define SHELF_CINTERRUPT_H

/*
 * Ctrl-C, handled with only what a signal handler may do: the handler sets a sig_atomic_t, and on a second
 * Ctrl-C ends the process at once with _exit(130). Everything else (stopping plugin calls, HTTP transfers,
 * playback) polls shelf_interrupt_requested() from ordinary code.
 */

/* Installs the SIGINT handler (system calls it interrupts are restarted, as signal(3) does on glibc). */
void shelf_interrupt_install(void);

/* 1 once Ctrl-C was pressed (or shelf_interrupt_set(1) was called), else 0. Safe from any thread. */
int shelf_interrupt_requested(void);

/* Sets or clears the request by hand: an embedding front end stopping its own calls, or a test. */
void shelf_interrupt_set(int requested);

#endif
