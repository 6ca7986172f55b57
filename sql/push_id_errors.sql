-- Firebase push IDs: every error, with its SQLSTATE
\set VERBOSITY default

-- push_id_time of text that is not 20 characters of -0-9A-Z_a-z: 22P02
-- a wrong length (reported for text of the alphabet only)
SELECT push_id_time('-Lyo78-Y');
\echo :LAST_ERROR_SQLSTATE
SELECT push_id_time('');
\echo :LAST_ERROR_SQLSTATE
SELECT push_id_time('-Lyo78-Yabcdefghijklm');
\echo :LAST_ERROR_SQLSTATE
-- a character outside the alphabet, with its position in characters
SELECT push_id_time('-Lyo78-Yabcdefghij+l');
\echo :LAST_ERROR_SQLSTATE
SELECT push_id_time('-Lyo78-Y.');
\echo :LAST_ERROR_SQLSTATE
SELECT push_id_time('λ-Lyo78-Yabcdefghijk');
\echo :LAST_ERROR_SQLSTATE
SELECT push_id_time('-Lyo78-Yabcdefghijkλ');
\echo :LAST_ERROR_SQLSTATE
SELECT push_id_time(E'-Lyo78-Y\tbcdefghijkl');
\echo :LAST_ERROR_SQLSTATE
SELECT push_id_time('-LYO78-Y abcdefghijk');
\echo :LAST_ERROR_SQLSTATE
