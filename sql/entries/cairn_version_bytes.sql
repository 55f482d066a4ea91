-- What a kept earlier version of a plan stores, in bytes (its content, title and steps): counted in
-- the org's stored bytes while it is kept (cairn_entry_version), taken off when it is forgotten.
CREATE OR REPLACE FUNCTION public.cairn_version_bytes(p_content text, p_title text, p_steps jsonb)
 RETURNS bigint
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
BEGIN
  RETURN octet_length(p_content)::bigint + coalesce(octet_length(p_title), 0) + coalesce(octet_length(p_steps::text), 0);
END $function$;
