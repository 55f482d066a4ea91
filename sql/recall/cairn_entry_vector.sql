-- An entry's search vector: the lexemes of its whole text (cairn_entry_text, cairn_search_vector),
-- those of its lead — a plan's title, else the first eight words, where agents name the topic
-- ("Stripe webhooks locally: …") — marked with weight A, so recall can weigh a match there up;
-- and its kind as words ("what did we decide…" finds decisions by their kind as well). A text of
-- whitespace alone has no lead: its vector is that of its other parts, never NULL.
CREATE OR REPLACE FUNCTION public.cairn_entry_vector(p_kind text, p_title text, p_content text, p_rationale text, p_source text, p_tags text[])
 RETURNS tsvector
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
DECLARE
  -- a variable, so that both calls of cairn_search_vector are inlined into one expression planned
  -- once per session (given a function call as its text, the second was run as a function, its
  -- body parsed and planned again by every write)
  v_text text := cairn_entry_text(p_title, p_content, p_rationale, p_source, p_tags);
BEGIN
  RETURN setweight(cairn_search_vector(coalesce(p_title, substring(p_content FROM '^\s*(\S+(\s+\S+){0,7})'), '')), 'A')
    || cairn_search_vector(v_text)
    || to_tsvector('english', CASE p_kind WHEN 'decision' THEN 'decision decided' WHEN 'observation' THEN 'observed'
                                          WHEN 'plan' THEN 'plan' ELSE '' END);
END $function$;
