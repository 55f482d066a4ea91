-- A vocabulary term of several words as recall matches it, a phrase: its tsquery's text, its words
-- in order with stop words as gaps ("end to end": 'end' <2> 'end'); NULL for a term of one word,
-- or one whose other words are all stop words ("time out": 'time'). Recall takes a synonym that
-- is a phrase as one term (cairn_recall_terms), and so does what it says no hit mentions
-- (cairn_recall_for): "api key" stands for "secret", "api" alone does not.
CREATE OR REPLACE FUNCTION public.cairn_phrase(p_term text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT q FROM (SELECT phraseto_tsquery('english', p_term)::text AS q) x WHERE p_term ~ ' ' AND q ~ ' <'
$function$;
