-- A registered OAuth client (or a metadata document's cached copy) by its client_id, or NULL.
CREATE OR REPLACE FUNCTION public.cairn_oauth_client_get(p_id text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  RETURN (SELECT cairn_oauth_client_json(c) FROM oauth_clients c WHERE c.id = p_id);
END $function$;
