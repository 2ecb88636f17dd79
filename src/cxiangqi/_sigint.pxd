# Ctrl-C during long work in C (a search, a perft) called from Python's main
# thread.  Python's own SIGINT handler only sets a flag that the interpreter
# looks at between bytecodes, and C code that runs without the GIL never gets
# there: a search of depth 40 or a perft(9) could not be interrupted.  While
# such work runs, and only while SIGINT has Python's default handler (a
# program's own handler, or an ignored SIGINT, is left alone),
# cx_sigint_catch puts a C handler in place that stops the work (an atomic
# store to its stop flag: async-signal-safe); cx_sigint_release puts
# Python's handler back and says whether a SIGINT came, and the caller then
# raises KeyboardInterrupt (_interrupt.py).
#
# Each module that cimports this gets its own copy (the code is static):
# one catch at a time per module, which the main thread guarantees.

cdef extern from *:
    """
    #include <signal.h>
    #include <string.h>
    static int *cx_sigint_target = NULL;  /* atomic: the flag to set, NULL when none */
    static volatile sig_atomic_t cx_sigint_seen = 0;
    static int cx_sigint_running = 0;     /* handlers inside their body (any thread) */
    static struct sigaction cx_sigint_saved;
    static inline void cx_sigint_handler(int sig) {
        int *p;
        (void) sig;
        __atomic_add_fetch(&cx_sigint_running, 1, __ATOMIC_SEQ_CST);
        p = __atomic_load_n(&cx_sigint_target, __ATOMIC_SEQ_CST);
        cx_sigint_seen = 1;
        if (p != NULL) __atomic_store_n(p, 1, __ATOMIC_SEQ_CST);
        __atomic_sub_fetch(&cx_sigint_running, 1, __ATOMIC_SEQ_CST);
    }
    /* 1 if the handler is in place (then call cx_sigint_release), 0 if not:
       also when this module already catches (work started from a Python
       signal handler inside other work: the outer catch covers it, and
       saving our own handler as "Python's" would lose Python's for good) */
    static inline int cx_sigint_catch(int *stop) {
        struct sigaction sa;
        if (__atomic_load_n(&cx_sigint_target, __ATOMIC_SEQ_CST) != NULL) return 0;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = cx_sigint_handler;
        sa.sa_flags = SA_ONSTACK;             /* as CPython installs its own */
        sigemptyset(&sa.sa_mask);
        cx_sigint_seen = 0;
        __atomic_store_n(&cx_sigint_target, stop, __ATOMIC_SEQ_CST);
        if (sigaction(SIGINT, &sa, &cx_sigint_saved) != 0) {
            __atomic_store_n(&cx_sigint_target, NULL, __ATOMIC_SEQ_CST);
            return 0;
        }
        return 1;
    }
    /* puts the saved handler back; 1 if a SIGINT came meanwhile.  Waits for
       a handler still running on another thread, so that none writes to the
       stop flag (perhaps a freed one) after this returns. */
    static inline int cx_sigint_release(void) {
        sigaction(SIGINT, &cx_sigint_saved, NULL);
        __atomic_store_n(&cx_sigint_target, NULL, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(&cx_sigint_running, __ATOMIC_SEQ_CST) != 0) { }
        return cx_sigint_seen != 0;
    }
    /* for work that polls its flag: 1 once the flag is set */
    static inline int cx_sigint_stopped(const int *stop) {
        return __atomic_load_n(stop, __ATOMIC_RELAXED) != 0;
    }
    /* sets a stop flag from another thread (as the handler does) */
    static inline void cx_stop_raise(int *stop) {
        __atomic_store_n(stop, 1, __ATOMIC_SEQ_CST);
    }
    """
    int cx_sigint_catch(int *stop) noexcept nogil
    int cx_sigint_release() noexcept nogil
    int cx_sigint_stopped(const int *stop) noexcept nogil
    void cx_stop_raise(int *stop) noexcept nogil


from cpython.exc cimport PyErr_CheckSignals


# Puts the C handler in place when `wanted` (the caller's
# _interrupt.catchable()) and returns True then (call cx_sigint_release
# after the work).  A SIGINT that came just before went to Python's handler,
# which only set a flag for later: it is raised here, not after hours of work.
cdef inline bint sigint_catch(int *stop, bint wanted) except -1:
    if not wanted or not cx_sigint_catch(stop):
        return False
    try:
        PyErr_CheckSignals()
    except BaseException:
        cx_sigint_release()
        raise
    return True
