-- Triggers on entries: keep scope_counts (entries of each kind) per scope, project and, for private rows,
-- agent, so `space` counts without reading the entries. Inserts and deletes count per statement;
-- an update moves a row between keys only if its scope, project or agent changes (no tool does
-- that today). The org's ledger head is locked first, as every write of the org takes it
-- (cairn_ledger_append), so writers of one org lock in one order. A decrease only lowers rows
-- that exist: under an org's cascade delete nothing is left to count.
CREATE OR REPLACE FUNCTION public.cairn_entry_count()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM 1 FROM ledger_heads h WHERE h.org_id IN (SELECT org_id FROM new_rows) ORDER BY h.org_id FOR UPDATE;
    INSERT INTO scope_counts AS c (org_id, scope, project_key, agent_key, kind, n, bytes)
      SELECT org_id, scope, project_key, CASE WHEN scope = 'agent' THEN agent ELSE '' END, kind,
        count(*), 0::bigint
      FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (org_id, scope, project_key, agent_key, kind)
      DO UPDATE SET n = c.n + EXCLUDED.n, bytes = c.bytes + EXCLUDED.bytes;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM 1 FROM ledger_heads h WHERE h.org_id IN (SELECT org_id FROM old_rows) ORDER BY h.org_id FOR UPDATE;
    UPDATE scope_counts c SET n = c.n - d.n, bytes = c.bytes - d.bytes
      FROM (SELECT org_id, scope, project_key AS project_key,
          CASE WHEN scope = 'agent' THEN agent ELSE '' END AS agent_key, kind AS kind,
          count(*) AS n, 0::bigint AS bytes
        FROM old_rows GROUP BY 1, 2, 3, 4, 5) d
      WHERE c.org_id = d.org_id AND c.scope = d.scope AND c.project_key = d.project_key
        AND c.agent_key = d.agent_key AND c.kind = d.kind;
  ELSE
    PERFORM 1 FROM ledger_heads h WHERE h.org_id = NEW.org_id FOR UPDATE;
    UPDATE scope_counts c SET n = c.n - 1, bytes = c.bytes - 0
      WHERE c.org_id = OLD.org_id AND c.scope = OLD.scope AND c.project_key = OLD.project_key
        AND c.agent_key = CASE WHEN OLD.scope = 'agent' THEN OLD.agent ELSE '' END AND c.kind = OLD.kind;
    INSERT INTO scope_counts AS c (org_id, scope, project_key, agent_key, kind, n, bytes)
      VALUES (NEW.org_id, NEW.scope, coalesce(NEW.project, ''), CASE WHEN NEW.scope = 'agent' THEN NEW.agent ELSE '' END,
        NEW.kind, 1, 0)
    ON CONFLICT (org_id, scope, project_key, agent_key, kind)
      DO UPDATE SET n = c.n + EXCLUDED.n, bytes = c.bytes + EXCLUDED.bytes;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER entries_count_insert AFTER INSERT ON entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_entry_count();
CREATE OR REPLACE TRIGGER entries_count_delete AFTER DELETE ON entries
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_entry_count();
CREATE OR REPLACE TRIGGER entries_count_move AFTER UPDATE OF scope, project, agent, kind ON entries
  FOR EACH ROW WHEN (OLD.scope IS DISTINCT FROM NEW.scope OR OLD.project IS DISTINCT FROM NEW.project
    OR OLD.agent IS DISTINCT FROM NEW.agent OR OLD.kind IS DISTINCT FROM NEW.kind)
  EXECUTE FUNCTION cairn_entry_count();
