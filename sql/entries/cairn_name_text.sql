-- An agent's name as a message shows it: bare when it is one plain word, quoted as a JSON string
-- otherwise, so that no name passes for the words around it (src/domain/agents.ts nameText).
CREATE OR REPLACE FUNCTION public.cairn_name_text(p_name text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN p_name ~ '^[[:alnum:]._@+/:-]+$' THEN p_name ELSE to_jsonb(p_name)::text END
$function$;
