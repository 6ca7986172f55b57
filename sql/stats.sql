-- idgen_stats: this backend's slot in shared memory
SET TimeZone = 'UTC';

SELECT coalesce((SELECT ids_minted FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'uuid_v7'), 0) AS before \gset
-- last_issued lies within the clock readings around the calls, plus the lead README states ("How
-- monotonicity works"): one 1/4096 ms step per value the session minted, at most (and a
-- microsecond for the nanoseconds clock_timestamp() drops)
SELECT clock_timestamp() AS t0 \gset
SELECT count(uuid_v7()) FROM generate_series(1, 1000);
SELECT clock_timestamp() AS t1 \gset
SELECT family, ids_minted - :before AS minted_now, shared_memory,
       last_issued BETWEEN date_trunc('milliseconds', :'t0'::timestamptz)
                       AND :'t1'::timestamptz + ceil(ids_minted * 1000 / 4096.0 + 1) * interval '1 microsecond'
           AS last_issued_is_recent,
       clock_regressions, waits, backend_index >= 0 AS has_backend_index
FROM idgen_stats WHERE pid = pg_backend_pid();

-- uuid_v7_at and boundaries read no sequence and count nothing
SELECT ids_minted AS before FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'uuid_v7' \gset
SELECT count(uuid_v7_at(now())) + count(uuid_v7_boundary(now())) FROM generate_series(1, 10);
SELECT ids_minted - :before AS minted_now FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'uuid_v7';

-- server-wide order shares one counter and still counts per backend
SHOW idgen.uuid_v7_order;
SET idgen.uuid_v7_order = 'server';
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, uuid_v7() AS id FROM generate_series(1, 20000) n) s) t;
SELECT ids_minted - :before AS minted_now FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'uuid_v7';
RESET idgen.uuid_v7_order;

-- so does ulid's, with idgen.ulid_order
SELECT ulid() IS NOT NULL AS first_ulid;
SELECT ids_minted AS before FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'ulid' \gset
SHOW idgen.ulid_order;
SET idgen.ulid_order = 'server';
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, ulid() AS id FROM generate_series(1, 20000) n) s) t;
SELECT ids_minted - :before AS minted_now FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'ulid';
RESET idgen.ulid_order;

-- the view is a plain relation over the function
SELECT count(*) = (SELECT count(*) FROM idgen_backend_state()) AS same_rows FROM idgen_stats;
