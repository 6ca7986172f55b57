-- ============================================================================
-- idgen_types(): the types above and every domain over one of them
-- ============================================================================

-- The C++ edition's function, its text taken from sql/idgen--{{VERSION}}.sql by
-- generate.py (one source), less the rows of the types this edition does not
-- create: its SQL-standard body holds the types as the OIDs of the domains
-- above, bound as this script runs. Their values reach a client as the base
-- types' (uuid, text, bytea), which its driver reads already: the client
-- packages' codecs are for the C++ edition's types, and look for the extension
-- idgen, not for this function.
{{IDGEN_TYPES_FUNCTION}}
