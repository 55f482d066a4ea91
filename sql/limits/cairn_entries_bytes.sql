-- Statement trigger on entries: one usage update per statement and org, whatever number of rows
-- it touched, refusing an entry longer than the plan allows (cairn_store_bytes).
CREATE OR REPLACE FUNCTION public.cairn_entries_bytes()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT org_id, sum(octet_length(content)) AS delta, max(char_length(content)) AS chars
        FROM new_rows GROUP BY org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, r.chars, NULL);
    END LOOP;
  ELSIF TG_OP = 'UPDATE' THEN
    FOR r IN SELECT n.org_id, sum(octet_length(n.content) - octet_length(o.content)) AS delta,
          max(char_length(n.content)) FILTER (WHERE n.content <> o.content) AS chars
        FROM new_rows n JOIN old_rows o ON o.id = n.id GROUP BY n.org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, r.chars, NULL);
    END LOOP;
  ELSE
    FOR r IN SELECT org_id, -sum(octet_length(content)) AS delta FROM old_rows GROUP BY org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, NULL, NULL);
    END LOOP;
  END IF;
  RETURN NULL;
END $function$;
