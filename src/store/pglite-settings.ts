/**
 * PGlite's start parameters: its own defaults, with PostgreSQL's memory settings sized for the
 * embedded database's job (a few small tables of orders), not for a server. PostgreSQL's default
 * `shared_buffers` (128 MB) alone is 128 MB of the WASM heap; with these, a started PGlite holds
 * ~180 MB RSS instead of ~310 MB (measured with `npm run footprint`, README "Memory").
 */
export const PGLITE_START_PARAMS = [
  // PGlite's defaults (0.5.x): single-user mode, no parallel workers, synchronous I/O.
  "--single",
  "-F",
  "-O",
  "-j",
  "-c",
  "search_path=public",
  "-c",
  "exit_on_error=false",
  "-c",
  "log_checkpoints=false",
  "-c",
  "max_worker_processes=0",
  "-c",
  "max_parallel_workers=0",
  "-c",
  "max_parallel_workers_per_gather=0",
  "-c",
  "io_method=sync",
  "-c",
  "max_parallel_maintenance_workers=0",
  // Memory for a small database.
  "-c",
  "shared_buffers=16MB",
  "-c",
  "work_mem=4MB",
  "-c",
  "maintenance_work_mem=16MB",
  "-c",
  "temp_buffers=2MB",
  "-c",
  "wal_buffers=1MB",
];
