-- ============================================================================
-- idgen_types(): the types above and every domain over one of them
-- ============================================================================

-- The C++ edition's function, its text taken from sql/idgen--{{VERSION}}.sql by
-- generate.py (one source): its SQL-standard body holds ulid, prefixed_id and
-- typeid as the OIDs of the domains above, bound as this script runs. Their
-- values reach a client as uuid and text, which its driver reads already: the
-- client packages' codecs are for the C++ edition's types, and look for the
-- extension idgen, not for this function.
{{IDGEN_TYPES_FUNCTION}}
