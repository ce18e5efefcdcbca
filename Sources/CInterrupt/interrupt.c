#include "CInterrupt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The one thing the handler writes; read from ordinary code on any thread. */
static volatile sig_atomic_t interrupted = 0;

static void on_interrupt(int signal_number) {
    (void)signal_number;
    if (interrupted) _exit(130);
    interrupted = 1;
}

void shelf_interrupt_install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
}

int shelf_interrupt_requested(void) { return interrupted ? 1 : 0; }

void shelf_interrupt_set(int requested) { interrupted = requested ? 1 : 0; }
