-- The text recall finds an entry by: its title (a plan's), content (a plan's steps are in it),
-- rationale, source and tags.
CREATE OR REPLACE FUNCTION public.cairn_entry_text(p_title text, p_content text, p_rationale text, p_source text, p_tags text[])
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
BEGIN
  RETURN concat_ws(' ', p_title, p_content, p_rationale, p_source, array_to_string(p_tags, ' '));
END $function$;
