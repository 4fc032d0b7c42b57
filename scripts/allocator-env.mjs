// glibc's allocator settings `npm start` runs the server with (decision 32-10), the same the sandbox
// children get (src/server/infra/process-pool.ts, decision 32-05): at most two malloc arenas, and
// blocks over 128 KB as their own mappings, returned to the system when freed, with a threshold that
// does not grow after the first big free. glibc reads them only as a process starts.
export const ALLOCATOR_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

/** Whether this process should run again with them: on Linux, unless the operator chose any of them. */
export function wantsAllocatorEnv(env = process.env, platform = process.platform) {
  return platform === 'linux' && Object.keys(ALLOCATOR_ENV).every((k) => env[k] === undefined);
}
