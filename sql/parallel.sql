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

-- The generators of the 0.8.0 families. Where the planner evaluates a call:
-- 'workers' when the Gather's subplan (the parallel scan) computes it,
-- 'leader' when only the nodes above the Gather do (EXPLAIN VERBOSE, read as
-- JSON so that the answer does not depend on the major's text layout; the
-- call is looked for by its name, as EXPLAIN deparses its arguments).
CREATE FUNCTION pg_temp.evaluated_in(query text, call text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
    gather jsonb;
BEGIN
    call := split_part(call, '(', 1) || '(';
    EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF, FORMAT JSON) ' || query INTO plan;
    gather := jsonb_path_query_first(plan, '$.**?(@."Node Type" == "Gather")');
    IF gather IS NULL THEN
        RETURN 'no parallel plan';
    ELSIF strpos((gather -> 'Plans')::text, call) > 0 THEN
        RETURN 'workers';
    ELSIF strpos(plan::text, call) > 0 THEN
        RETURN 'leader';
    END IF;
    RETURN 'not in the plan';
END
$$;
-- ksuid(), uuid_v6(), objectid() and xid() are PARALLEL RESTRICTED: in the
-- leader. ksuid_at() and uuid_v6_at() (random bits, no sequence) are
-- PARALLEL SAFE: in the workers.
SELECT call, pg_temp.evaluated_in('SELECT ' || call || ' FROM parallel_source WHERE g % 2 = 0', call) AS evaluated_in
FROM (VALUES ('ksuid()'), ('uuid_v6()'), ('objectid()'), ('xid()'),
             ('ksuid_at(''2025-01-01+00'')'), ('uuid_v6_at(''2025-01-01+00'')')) v(call);

-- In the leader, one sequence: ordered by the leader's ulid() of the same row
-- (the order the leader computed the rows in), uuid_v6() values increase, and
-- objectid() and xid() counters step by one, their seconds never going back.
-- Values computed in two workers would interleave as the leader gathers them.
CREATE TABLE parallel_sequences AS
SELECT ulid() AS u, uuid_v6() AS v6, objectid() AS o, xid() AS x
FROM parallel_source WHERE g % 2 = 0;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE v6 <= prev_v6) AS uuid_v6_out_of_order,
       count(*) FILTER (WHERE (objectid_counter(o) - objectid_counter(prev_o) + 16777216) % 16777216 <> 1
                           OR objectid_time(o) < objectid_time(prev_o)) AS objectid_off_sequence,
       count(*) FILTER (WHERE (xid_counter(x) - xid_counter(prev_x) + 16777216) % 16777216 <> 1
                           OR xid_time(x) < xid_time(prev_x)) AS xid_off_sequence,
       count(DISTINCT objectid_process(o)) AS objectid_processes
FROM (SELECT v6, o, x, lag(v6) OVER w AS prev_v6, lag(o) OVER w AS prev_o, lag(x) OVER w AS prev_x
      FROM parallel_sequences WINDOW w AS (ORDER BY u)) s;

-- In the workers, each with a CSPRNG of its own (seeded in the worker, not
-- copied from the postmaster): no value repeats.
SELECT count(*) AS ids, count(DISTINCT k) AS distinct_ksuids, count(DISTINCT v6) AS distinct_uuid_v6
FROM (SELECT ksuid_at('2025-01-01+00') AS k, uuid_v6_at('2025-01-01+00') AS v6 FROM parallel_source) s;

RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET parallel_leader_participation;
DROP TABLE parallel_source, parallel_ids, parallel_sequences;
