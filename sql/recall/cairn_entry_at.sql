-- An entry as it stood at cairn_as_of(): a plan updated since, as its version current then (the
-- kept version with the latest updated_at not after it, entry_versions); a link to a replacement
-- written since, gone (a project's replacement of an org entry too). As it is now when no as_of is
-- asked.
CREATE OR REPLACE FUNCTION public.cairn_entry_at(e entries)
 RETURNS entries
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_at timestamptz := cairn_as_of();
  v entry_versions;
BEGIN
  IF v_at = 'infinity' THEN
    RETURN e;
  END IF;
  IF e.superseded_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM entries s WHERE s.org_id = e.org_id
      AND s.id = e.superseded_by AND s.created_at <= v_at) THEN
    e.superseded_by := NULL;
  END IF;
  IF e.superseded_in IS NOT NULL THEN
    e.superseded_in := (SELECT jsonb_object_agg(r.project, r.id) FROM jsonb_each_text(e.superseded_in) AS r(project, id)
      WHERE EXISTS (SELECT 1 FROM entries s WHERE s.org_id = e.org_id AND s.id = r.id::uuid AND s.created_at <= v_at));
  END IF;
  IF e.kind = 'plan' AND e.updated_at > v_at THEN
    SELECT * INTO v FROM entry_versions x WHERE x.org_id = e.org_id AND x.entry_id = e.id AND x.updated_at <= v_at
      ORDER BY x.version DESC LIMIT 1;
    IF FOUND THEN
      e.title := v.title;
      e.status := v.status;
      e.steps := v.steps;
      e.content := v.content;
      e.version := v.version;
      e.updated_at := v.updated_at;
    END IF;
  END IF;
  RETURN e;
END $function$;
