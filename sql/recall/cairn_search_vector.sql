-- The lexemes of a text as recall matches them: its words (English stemming, stop words dropped),
-- and the words inside its identifiers, paths, hosts and URLs — split at punctuation
-- (`otel-collector.observability:4318`, `@basketly/pricing`, `org.apache.kafka.errors.RecordTooLargeException`)
-- and again at camelCase (`useCartStore` also gives use, cart, store; `PostgreSQL` gives postgre, sql),
-- so a question naming a part finds the whole. Queries are read the same way (cairn_recall_for).
-- Used for entries.search (cairn_entry_vector); a change here needs a migration that recomputes it.
CREATE OR REPLACE FUNCTION public.cairn_search_vector(p_text text)
 RETURNS tsvector
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT to_tsvector('english', p_text)
    || to_tsvector('english', regexp_replace(p_text, '[^[:alnum:]]+', ' ', 'g'))
    || to_tsvector('english', regexp_replace(regexp_replace(p_text, '([[:lower:][:digit:]])([[:upper:]])', '\1 \2', 'g'),
         '[^[:alnum:]]+', ' ', 'g'))
$function$;
