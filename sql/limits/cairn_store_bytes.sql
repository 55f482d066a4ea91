-- Adds p_delta bytes to what an org holds, refusing growth past its plan's storage, and refuses an
-- entry or artifact larger than its plan allows (p_chars: the largest new entry, all its fields
-- together, cairn_entry_chars; p_size: the largest new artifact). Under a storage quota the org's
-- usage row is changed at once, so the quota holds exactly under concurrency; without one, the
-- bytes are left pending for the org's seal (cairn_org_seal) and no writer waits for another.
CREATE OR REPLACE FUNCTION public.cairn_store_bytes(p_org uuid, p_delta bigint, p_chars integer, p_size bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_plan service_plans := cairn_limits(p_org);
  v_bytes bigint;
BEGIN
  IF p_chars > v_plan.entry_chars THEN
    RAISE EXCEPTION 'content: the entry holds % characters (content, title, rationale, source, tags, metadata and steps together), more than the % characters an entry may hold on plan "%"; shorten it or split it',
      p_chars, v_plan.entry_chars, v_plan.id USING ERRCODE = 'CN413';
  END IF;
  IF p_size > v_plan.artifact_bytes THEN
    RAISE EXCEPTION 'content: the artifact is % bytes; plan "%" allows at most % bytes per artifact',
      p_size, v_plan.id, v_plan.artifact_bytes USING ERRCODE = 'CN413';
  END IF;
  IF p_delta = 0 THEN
    RETURN;
  END IF;
  IF v_plan.stored_bytes IS NULL THEN
    INSERT INTO usage_pending (org_id, day, calls, bytes)
      VALUES (p_org, (clock_timestamp() AT TIME ZONE 'UTC')::date, 0, p_delta);
    RETURN;
  END IF;
  UPDATE org_usage SET stored_bytes = stored_bytes + p_delta WHERE org_id = p_org
    RETURNING stored_bytes INTO v_bytes;
  IF p_delta > 0 AND v_bytes > v_plan.stored_bytes THEN
    PERFORM cairn_refuse('stored_bytes', v_plan.id, v_plan.stored_bytes, v_bytes - p_delta, 3600, NULL, NULL,
      format('Storage quota reached: this write needs %s bytes and the org holds %s of the %s bytes its plan "%s" allows. Forget entries or artifacts you no longer need, or change the plan.',
        p_delta, v_bytes - p_delta, v_plan.stored_bytes, v_plan.id));
  END IF;
END $function$;
