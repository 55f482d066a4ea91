-- Triggers on artifacts: keep scope_counts (artifacts as kind 'artifact', with their bytes) per scope, project and, for private rows,
-- agent, so `space` counts without reading the artifacts. Inserts and deletes count per statement;
-- an update moves a row between keys only if its scope, project or agent changes (no tool does
-- that today). Artifacts are counted at once, on rows of their own kind ('artifact'), which the
-- seal's fold of entries' counts never touches (cairn_org_seal). A decrease only lowers rows that
-- exist: under an org's cascade delete nothing is left to count.
CREATE OR REPLACE FUNCTION public.cairn_artifact_count()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO scope_counts AS c (org_id, scope, project_key, agent_key, kind, n, bytes)
      SELECT org_id, scope, coalesce(project, ''), CASE WHEN scope = 'agent' THEN agent ELSE '' END, 'artifact',
        count(*), sum(size)
      FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (org_id, scope, project_key, agent_key, kind)
      DO UPDATE SET n = c.n + EXCLUDED.n, bytes = c.bytes + EXCLUDED.bytes;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE scope_counts c SET n = c.n - d.n, bytes = c.bytes - d.bytes
      FROM (SELECT org_id, scope, coalesce(project, '') AS project_key,
          CASE WHEN scope = 'agent' THEN agent ELSE '' END AS agent_key, 'artifact' AS kind,
          count(*) AS n, sum(size) AS bytes
        FROM old_rows GROUP BY 1, 2, 3, 4, 5) d
      WHERE c.org_id = d.org_id AND c.scope = d.scope AND c.project_key = d.project_key
        AND c.agent_key = d.agent_key AND c.kind = d.kind;
  ELSE
    UPDATE scope_counts c SET n = c.n - 1, bytes = c.bytes - OLD.size
      WHERE c.org_id = OLD.org_id AND c.scope = OLD.scope AND c.project_key = coalesce(OLD.project, '')
        AND c.agent_key = CASE WHEN OLD.scope = 'agent' THEN OLD.agent ELSE '' END AND c.kind = 'artifact';
    INSERT INTO scope_counts AS c (org_id, scope, project_key, agent_key, kind, n, bytes)
      VALUES (NEW.org_id, NEW.scope, coalesce(NEW.project, ''), CASE WHEN NEW.scope = 'agent' THEN NEW.agent ELSE '' END,
        'artifact', 1, NEW.size)
    ON CONFLICT (org_id, scope, project_key, agent_key, kind)
      DO UPDATE SET n = c.n + EXCLUDED.n, bytes = c.bytes + EXCLUDED.bytes;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER artifacts_count_insert AFTER INSERT ON artifacts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_artifact_count();
CREATE OR REPLACE TRIGGER artifacts_count_delete AFTER DELETE ON artifacts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_artifact_count();
CREATE OR REPLACE TRIGGER artifacts_count_move AFTER UPDATE OF scope, project, agent ON artifacts
  FOR EACH ROW WHEN (OLD.scope IS DISTINCT FROM NEW.scope OR OLD.project IS DISTINCT FROM NEW.project
    OR OLD.agent IS DISTINCT FROM NEW.agent)
  EXECUTE FUNCTION cairn_artifact_count();
