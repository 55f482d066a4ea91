-- Row trigger on entries: keeps recall's index in step with each entry: its postings (keys from
-- cairn_entry_keys) and the org's term and document statistics (BM25's df, N and average length;
-- a word's row goes when no entry holds it).
CREATE OR REPLACE FUNCTION public.cairn_entry_index()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_org uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.org_id ELSE NEW.org_id END;
BEGIN
  PERFORM 1 FROM entry_stats WHERE org_id = v_org FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO entry_stats (org_id, docs, lexemes) VALUES (v_org, 0, 0) ON CONFLICT DO NOTHING;
    PERFORM 1 FROM entry_stats WHERE org_id = v_org FOR UPDATE;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM postings WHERE org_id = v_org AND project = coalesce(OLD.project, '') AND entry_id = OLD.id
      AND lexeme = ANY(cairn_entry_keys(OLD.search, cairn_entry_text(OLD.title, OLD.content, OLD.rationale, OLD.source, OLD.tags)));
    UPDATE term_stats t SET df = t.df - 1
      FROM unnest(tsvector_to_array(OLD.search)) AS l(lexeme)
      WHERE t.org_id = v_org AND t.lexeme = l.lexeme;
    -- a word no entry holds any more goes: a forgotten entry leaves none of its words behind
    DELETE FROM term_stats
      WHERE org_id = v_org AND lexeme = ANY(tsvector_to_array(OLD.search)) AND df <= 0;
    UPDATE entry_stats SET docs = docs - 1, lexemes = lexemes - length(OLD.search) WHERE org_id = v_org;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO postings (org_id, lexeme, project, entry_id)
      SELECT v_org, k, coalesce(NEW.project, ''), NEW.id
      FROM unnest(cairn_entry_keys(NEW.search, cairn_entry_text(NEW.title, NEW.content, NEW.rationale, NEW.source, NEW.tags))) AS k
      ON CONFLICT DO NOTHING;
    INSERT INTO term_stats (org_id, lexeme, df)
      SELECT v_org, l, 1 FROM unnest(tsvector_to_array(NEW.search)) AS l ORDER BY l
      ON CONFLICT (org_id, lexeme) DO UPDATE SET df = term_stats.df + 1;
    UPDATE entry_stats SET docs = docs + 1, lexemes = lexemes + length(NEW.search) WHERE org_id = v_org;
  END IF;
  RETURN NULL;
END $function$;
