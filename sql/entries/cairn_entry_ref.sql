-- The entry a tool's argument names: a full id as it is, or a handle, the id's last 8 hex digits
-- (entries.handle, which the brief shows; any case), looked up among the entries p_reader may read
-- (any shared entry of the org, or its own private one) by the index on (org_id, handle). Another
-- agent's private entry is as absent here as everywhere: it neither answers a handle nor makes one
-- ambiguous. A handle that names no entry gives NULL, or, with p_missing, is "not found" as
-- cairn_missing words it; one that names several is refused with their ids (p_field: the
-- argument the caller names).
CREATE OR REPLACE FUNCTION public.cairn_entry_ref(p_org uuid, p_ref text, p_reader text, p_field text,
  p_missing text DEFAULT NULL)
 RETURNS uuid
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_ids uuid[];
BEGIN
  IF p_ref IS NULL OR length(p_ref) <> 8 THEN
    RETURN p_ref::uuid;
  END IF;
  v_ids := ARRAY(SELECT id FROM entries
    WHERE org_id = p_org AND handle = lower(p_ref) AND (scope <> 'agent' OR agent = p_reader) ORDER BY id);
  IF cardinality(v_ids) = 1 THEN
    RETURN v_ids[1];
  ELSIF cardinality(v_ids) > 1 THEN
    RAISE EXCEPTION '%: handle % names % entries (%); pass the full id', p_field, p_ref, cardinality(v_ids),
      array_to_string(v_ids, ', ') USING ERRCODE = 'CN422';
  ELSIF p_missing IS NOT NULL THEN
    RAISE EXCEPTION '% % not found', p_missing, p_ref USING ERRCODE = 'CN404';
  END IF;
  RETURN NULL;
END $function$;
