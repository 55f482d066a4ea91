-- cairn_recall_visible takes the time a recall reads the memory as of (p_at), once per call
-- instead of a setting read for every row it judges (recall cost 2× without it).
DROP FUNCTION IF EXISTS cairn_recall_visible(entries, text, text, text, boolean, text[], text[], text, timestamptz, timestamptz);
