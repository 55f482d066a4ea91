-- SHA-256 of text (UTF-8) as lowercase hex: content hashes and the ledger's chain.
CREATE OR REPLACE FUNCTION public.cairn_sha256(p text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
BEGIN
  RETURN encode(sha256(convert_to(p, 'UTF8')), 'hex');
END $function$;
