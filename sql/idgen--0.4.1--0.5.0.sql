-- idgen 0.4.1 -> 0.5.0: hardening (issue 14).
\echo Use "ALTER EXTENSION idgen UPDATE TO '0.5.0'" to load this file. \quit

-- Generators with per-session sequences run in the leader only: a parallel
-- worker would mint from a fresh sequence of its own, out of the session's order.
ALTER FUNCTION uuid_v7() PARALLEL RESTRICTED;
ALTER FUNCTION uuid_v7(interval) PARALLEL RESTRICTED;
ALTER FUNCTION ulid() PARALLEL RESTRICTED;
ALTER FUNCTION prefixed_id_new(text) PARALLEL RESTRICTED;
