-- An entry as a recall hit, in json.
CREATE OR REPLACE FUNCTION public.cairn_hit_json(e entries, p_score double precision)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN json_build_object(
      'id', e.id, 'kind', e.kind, 'content', e.content, 'rationale', e.rationale,
      'source', e.source, 'title', e.title, 'status', e.status, 'steps', e.steps,
      'tags', e.tags, 'scope', e.scope, 'project', e.project, 'agent', e.agent,
      'metadata', e.metadata, 'created_at', e.created_at, 'updated_at', e.updated_at,
      'version', e.version, 'supersedes', CASE WHEN e.supersedes IS NULL THEN NULL ELSE cairn_link_seen(e.org_id, e.supersedes) END,
      'superseded_by', CASE WHEN e.superseded_by IS NULL AND e.superseded_in IS NULL THEN NULL ELSE cairn_link_seen(e.org_id, cairn_replacement(e)) END,
      'expires_at', e.expires_at, 'paths', e.paths, 'commit', e.commit, 'stale', CASE WHEN e.paths IS NULL THEN NULL ELSE cairn_entry_stale(e) END, 'score', round(p_score::numeric, 4));
END $function$;
