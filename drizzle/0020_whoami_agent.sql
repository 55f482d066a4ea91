-- cairn_whoami checks the agent too (sql/context/cairn_whoami.sql): its one-argument form goes, so
-- that a call with the key alone is not ambiguous between the two
DROP FUNCTION IF EXISTS cairn_whoami(text);
