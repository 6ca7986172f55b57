-- idgen 0.4.1 -> 0.5.0: hardening (issue 14).
\echo Use "ALTER EXTENSION idgen UPDATE TO '0.5.0'" to load this file. \quit

-- Defect 5 (one user can degrade another's IDs): the views filter their rows by
-- the reader's privileges (idgen_stats as pg_stat_activity does; the shards of
-- idgen_snowflake_shards by idgen.allowed_shards), so every role may read them.
COMMENT ON VIEW idgen_snowflake_shards IS
    'snowflake shards active since the server started, with their last ID and clock events (the shards this session may mint on; every shard for pg_read_all_stats)';
GRANT SELECT ON idgen_snowflake_shards TO PUBLIC;
COMMENT ON VIEW idgen_stats IS
    'generator state of each live backend and ID family (this session, backends of roles whose privileges the reader has, every backend for pg_read_all_stats; shared_memory is false when idgen is not preloaded)';
GRANT SELECT ON idgen_stats TO PUBLIC;
