-- Row trigger on entries: an entry's search vector follows its text on every write, before the
-- index triggers (cairn_entry_index) read it.
CREATE OR REPLACE FUNCTION public.cairn_entry_search()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW.search := cairn_entry_vector(NEW.kind, NEW.title, NEW.content, NEW.rationale, NEW.source, NEW.tags);
  RETURN NEW;
END $function$;

CREATE OR REPLACE TRIGGER entries_search BEFORE INSERT OR UPDATE OF title, content, rationale, source, tags
  ON entries FOR EACH ROW EXECUTE FUNCTION cairn_entry_search();
