-- idgen 0.4.1 -> 0.5.0: hardening (issue 14).
\echo Use "ALTER EXTENSION idgen UPDATE TO '0.5.0'" to load this file. \quit
