-- Backfill (`cairn embed`): a page of the org's entries that have no vector in a space, by id.
CREATE OR REPLACE FUNCTION public.cairn_admin_unembedded(p_org uuid, p_model text, p_after uuid, p_limit integer)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_entries jsonb;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  IF to_regclass('entry_vectors') IS NULL THEN
    RAISE EXCEPTION 'the database holds no vectors: configure CAIRN_EMBEDDINGS and run cairn migrate' USING ERRCODE = 'CN409';
  END IF;
  SELECT coalesce(jsonb_agg(cairn_entry_json(e) ORDER BY e.id), '[]'::jsonb) INTO v_entries
    FROM (SELECT * FROM entries e
          WHERE e.org_id = p_org AND e.id > coalesce(p_after, '00000000-0000-0000-0000-000000000000'::uuid)
            AND NOT EXISTS (SELECT 1 FROM entry_vectors v WHERE v.entry_id = e.id AND v.model = p_model)
          ORDER BY e.id LIMIT p_limit) e;
  RETURN v_entries;
END $function$;
