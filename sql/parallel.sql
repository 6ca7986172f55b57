-- Parallel query. Generators that keep per-session state (a sequence that must
-- increase within the session) are PARALLEL RESTRICTED, as core's random() is:
-- a parallel worker would mint from a fresh sequence of its own, out of the
-- session's order. Generators without such state and every pure function
-- (decoders, boundaries, I/O, operators) stay PARALLEL SAFE; the schema test
-- lists every function's label.
-- A parallel plan: the scan runs in workers, the generators in the leader.
CREATE TABLE parallel_source AS SELECT g FROM generate_series(1, 200000) g;
ANALYZE parallel_source;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
CREATE FUNCTION pg_temp.plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        RETURN NEXT line;
    END LOOP;
END
$$;
SELECT pg_temp.plan('SELECT g FROM parallel_source WHERE g % 2 = 0');
SELECT bool_or(line ~ 'Gather') AS gathers
FROM pg_temp.plan('SELECT clock_timestamp(), ulid(), uuid_v7(), uuid_v7(interval ''1 day''),
                          prefixed_id_new(''par'') FROM parallel_source WHERE g % 2 = 0') AS line;

-- Every generated value is above the one generated just before it, in the
-- order the clock was read: no value came from another process's sequence.
CREATE TABLE parallel_ids AS
SELECT clock_timestamp() AS t, ulid() AS u, uuid_v7() AS v, uuid_v7(interval '1 day') AS w,
       prefixed_id_new('par') AS p
FROM parallel_source WHERE g % 2 = 0;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE u <= prev_u) AS ulid_out_of_order,
       count(*) FILTER (WHERE v <= prev_v) AS uuid_v7_out_of_order,
       count(*) FILTER (WHERE w <= prev_w) AS shifted_uuid_v7_out_of_order,
       count(*) FILTER (WHERE p <= prev_p) AS prefixed_out_of_order
FROM (SELECT u, v, w, p, lag(u) OVER o AS prev_u, lag(v) OVER o AS prev_v,
             lag(w) OVER o AS prev_w, lag(p) OVER o AS prev_p
      FROM parallel_ids WINDOW o AS (ORDER BY t, u)) s;

-- snowflake() is PARALLEL SAFE: its order lives in shared memory, so workers
-- mint on one shard without repeating an ID, renewing the lease as they go.
SELECT bool_or(line ~ 'Gather') AS gathers
FROM pg_temp.plan('SELECT snowflake(3) FROM parallel_source') AS line;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids
FROM (SELECT snowflake(3) AS id FROM parallel_source) s;

RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET parallel_leader_participation;
DROP TABLE parallel_source, parallel_ids;
