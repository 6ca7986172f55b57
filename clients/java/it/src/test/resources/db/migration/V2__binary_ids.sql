-- KSUID, ObjectId and XID columns, each filled by its generator where the row leaves it out, and
-- an objectid column that the application fills with the BSON library's ObjectId.
-- README java begins
CREATE TABLE notes (
    id objectid PRIMARY KEY DEFAULT objectid(),
    ref ksuid NOT NULL DEFAULT ksuid(),
    trace rsxid,
    mongo_id objectid UNIQUE,
    body text NOT NULL
);
-- README java ends
