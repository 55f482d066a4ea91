-- Resolves a canonical project id. Writes register it; reads fall back to NULL (org-wide) for a
-- project the org has never used. A lookup error also falls back, as the interface requires.
CREATE OR REPLACE FUNCTION public.cairn_project(p_org uuid, p_project text, p_register boolean)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF p_project IS NULL THEN
    RETURN NULL;
  END IF;
  BEGIN
    IF p_register THEN
      INSERT INTO projects (org_id, canonical) VALUES (p_org, p_project) ON CONFLICT DO NOTHING;
      RETURN p_project;
    END IF;
    PERFORM 1 FROM projects WHERE org_id = p_org AND canonical = p_project;
    IF FOUND THEN
      RETURN p_project;
    END IF;
    RETURN NULL;
  EXCEPTION WHEN others THEN
    RETURN NULL;
  END;
END $function$;
