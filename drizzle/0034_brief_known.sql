-- cairn_brief takes what the server already holds of the last brief's candidates (p_known: id ->
-- row version), and sends those that are unchanged as their section and id only
-- (sql/tools/cairn_brief.sql; docs/design.md, "CPU per call").
DROP FUNCTION IF EXISTS cairn_brief(uuid, text, text, text, integer);
