-- Statement trigger on artifacts: adds (insert) or frees (delete) the stored bytes of each org
-- touched (its bytes, name and metadata: cairn_artifact_bytes), refusing an artifact over the
-- plan's size (cairn_store_bytes).
CREATE OR REPLACE FUNCTION public.cairn_artifacts_bytes()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT n.org_id, sum(cairn_artifact_bytes(n))::bigint AS delta, max(n.size) AS largest
        FROM new_rows n GROUP BY n.org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, NULL, r.largest);
    END LOOP;
  ELSE
    FOR r IN SELECT o.org_id, -sum(cairn_artifact_bytes(o))::bigint AS delta FROM old_rows o GROUP BY o.org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, NULL, NULL);
    END LOOP;
  END IF;
  RETURN NULL;
END $function$;
