-- What a replaced entry's words lead to in a recall (cairn_recall_for): its replacement as the
-- read sees it (cairn_replacement), followed along the chain to the first one the read may return
-- (cairn_recall_visible with all of the read's filters), at most eight steps; NULL when there is
-- none. The replaced entry said what its topic is ("driver-app pins Flutter with FVM: 3.22.3"),
-- and the entry that replaced it is that topic's current word ("Flutter bumped to 3.27.1").
CREATE OR REPLACE FUNCTION public.cairn_recall_heir(e entries, p_agent text, p_scope text, p_proj text, p_kinds text[], p_tags text[], p_author text, p_since timestamp with time zone, p_until timestamp with time zone, p_at timestamp with time zone)
 RETURNS uuid
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_cur entries := e;
  v_next uuid;
BEGIN
  FOR i IN 1 .. 8 LOOP
    v_next := cairn_replacement(v_cur);
    IF v_next IS NULL THEN
      RETURN NULL;
    END IF;
    SELECT n.* INTO v_cur FROM entries n WHERE n.org_id = e.org_id AND n.id = v_next;
    IF NOT FOUND THEN
      RETURN NULL;
    END IF;
    IF cairn_recall_visible(v_cur, p_agent, p_scope, p_proj, false, p_kinds, p_tags, p_author, p_since, p_until, p_at) THEN
      RETURN v_next;
    END IF;
  END LOOP;
  RETURN NULL;
END $function$;
