#ifndef C_SWIFT_CONCURRENCY_HOOK_H
#define C_SWIFT_CONCURRENCY_HOOK_H

#include <stdbool.h>

/// Where `siwa serve` sends Swift Concurrency's jobs: called with each job the runtime enqueues on its
/// global executor (a `Job *`, which Swift sees as an `UnownedJob`).
typedef void (*siwa_global_job_sink)(void *_Nonnull job);

/// Sets Swift Concurrency's global-enqueue hook (`swift_task_enqueueGlobal_hook`, declared by the
/// runtime's `swift/Runtime/Concurrency.h`) so that every job goes to `sink`, when no hook is set yet;
/// true when it set it. Call it once, before any task starts.
///
/// The hook is reached through the linker, not `dlsym`: in a binary linked with the static Swift runtime
/// (`Packaging/link-static.sh`) the symbol is local, absent from the dynamic symbol table, and only a
/// reference from inside the same link finds it.
bool siwa_install_global_job_sink(siwa_global_job_sink _Nonnull sink);

#endif
