-- idgen 0.7.0 -> 0.8.0. Install the 0.8.0 library and restart the server (its
-- shared-memory region changed) before ALTER EXTENSION idgen UPDATE: a
-- server that preloads idgen finds the new functions' C symbols only after
-- the restart. Each change of the release is a block of its own below.
\echo Use "CREATE EXTENSION idgen" to load this file. \quit
