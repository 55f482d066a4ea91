-- Backfill: stores vectors ([{id, vector}]) for entries of the org; returns how many it stored.
CREATE OR REPLACE FUNCTION public.cairn_admin_put_vectors(p_org uuid, p_model text, p_items jsonb)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_count int;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  INSERT INTO entry_vectors (entry_id, model, org_id, embedding)
    SELECT e.id, p_model, e.org_id, (i->>'vector')::vector
    FROM jsonb_array_elements(p_items) AS i JOIN entries e ON e.org_id = p_org AND e.id = (i->>'id')::uuid
    ON CONFLICT (entry_id, model) DO UPDATE SET embedding = EXCLUDED.embedding;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count;
END $function$;
