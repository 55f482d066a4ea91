-- cairn_recall_score takes the candidate's project, to look up its identifier keys by the whole
-- postings key (sql/recall/cairn_recall_score.sql)
-- (IF EXISTS: a new database gets the function from the function files, after its migrations)
DROP FUNCTION IF EXISTS cairn_recall_score(uuid, uuid, tsvector, tsquery[], double precision[], integer[], text[], double precision);
