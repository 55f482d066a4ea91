-- The canonical text of a ledger event that its hash covers: each field length-prefixed.
CREATE OR REPLACE FUNCTION public.cairn_ledger_canonical(p_seq bigint, p_org uuid, p_at timestamp with time zone, p_agent text, p_op text, p_entry uuid, p_project text, p_sha text, p_reason text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN (
    SELECT string_agg(octet_length(f)::text || ':' || f, '' ORDER BY i)
    FROM unnest(ARRAY[
      p_seq::text, p_org::text, (extract(epoch FROM p_at) * 1000)::bigint::text, p_agent, p_op,
      coalesce(p_entry::text, ''), coalesce(p_project, ''), coalesce(p_sha, ''), coalesce(p_reason, '')
    ]) WITH ORDINALITY AS t(f, i));
END $function$;
