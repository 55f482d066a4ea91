-- Row trigger on entries: a plan updated in place keeps the version it replaced (entry_versions),
-- valid from that version's updated_at until the new one's, so that recall as of a time shows the
-- version current then (docs/design.md, "Memory across time"). Its bytes count in the org's
-- stored bytes (a plan updated a thousand times holds a thousand versions).
CREATE OR REPLACE FUNCTION public.cairn_entry_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO entry_versions (org_id, entry_id, version, title, status, steps, content, updated_at, updated_by)
    VALUES (OLD.org_id, OLD.id, OLD.version, OLD.title, OLD.status, OLD.steps, OLD.content, OLD.updated_at,
      coalesce(OLD.updated_by, OLD.agent))
    ON CONFLICT DO NOTHING;
  PERFORM cairn_store_bytes(OLD.org_id, cairn_version_bytes(OLD.content, OLD.title, OLD.steps), NULL, NULL);
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER entries_version AFTER UPDATE OF version ON entries
  FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION cairn_entry_version();
