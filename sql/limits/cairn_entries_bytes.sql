-- Statement trigger on entries: one usage update per statement and org, whatever number of rows
-- it touched, refusing an entry longer than the plan allows (cairn_store_bytes). Every field a
-- writer sets counts, in bytes for the quota and in characters for the entry limit
-- (cairn_entry_bytes, cairn_entry_chars).
CREATE OR REPLACE FUNCTION public.cairn_entries_bytes()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT n.org_id, sum(cairn_entry_bytes(n))::bigint AS delta, max(cairn_entry_chars(n)) AS chars
        FROM new_rows n GROUP BY n.org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, r.chars, NULL);
    END LOOP;
  ELSIF TG_OP = 'UPDATE' THEN
    FOR r IN SELECT n.org_id, sum(cairn_entry_bytes(n) - cairn_entry_bytes(o))::bigint AS delta,
          max(cairn_entry_chars(n)) FILTER (WHERE cairn_entry_chars(n) > cairn_entry_chars(o)) AS chars
        FROM new_rows n JOIN old_rows o ON o.id = n.id GROUP BY n.org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, r.chars, NULL);
    END LOOP;
  ELSE
    FOR r IN SELECT o.org_id, -sum(cairn_entry_bytes(o))::bigint AS delta FROM old_rows o GROUP BY o.org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, NULL, NULL);
    END LOOP;
  END IF;
  RETURN NULL;
END $function$;
