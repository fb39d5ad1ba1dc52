#include "CSwiftConcurrencyHook.h"

#include <stddef.h>

// The runtime's own declarations (swift/Runtime/Concurrency.h): both are Swift-convention functions.
typedef void (__attribute__((swiftcall)) *siwa_enqueue_global_original)(void *job);
typedef void (__attribute__((swiftcall)) *siwa_enqueue_global_hook)(void *job, siwa_enqueue_global_original original);
extern siwa_enqueue_global_hook swift_task_enqueueGlobal_hook;

static siwa_global_job_sink installed_sink;

static void __attribute__((swiftcall)) enqueue_on_sink(void *job, siwa_enqueue_global_original original) {
    (void)original;
    installed_sink(job);
}

bool siwa_install_global_job_sink(siwa_global_job_sink sink) {
    installed_sink = sink;
    siwa_enqueue_global_hook expected = NULL;
    return __atomic_compare_exchange_n(
        &swift_task_enqueueGlobal_hook, &expected, enqueue_on_sink, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
