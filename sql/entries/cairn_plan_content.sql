-- A plan's searchable text: its title, then one line per step with its status.
CREATE OR REPLACE FUNCTION public.cairn_plan_content(p_title text, p_steps jsonb)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
BEGIN
  RETURN p_title || coalesce((
      SELECT string_agg(E'\n- [' || (s->>'status') || '] ' || (s->>'text'), '' ORDER BY i)
      FROM jsonb_array_elements(coalesce(p_steps, '[]'::jsonb)) WITH ORDINALITY AS t(s, i)), '');
END $function$;
