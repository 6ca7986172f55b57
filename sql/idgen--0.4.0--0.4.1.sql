-- idgen 0.4.0 -> 0.4.1: no SQL object changes (the release changes the library only)
\echo Use "CREATE EXTENSION idgen" to load this file. \quit
