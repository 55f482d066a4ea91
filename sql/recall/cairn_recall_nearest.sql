-- The entries nearest a query vector (cosine distance), nearest first: the p_k nearest of the org's
-- vectors of that model, then those the read may see (a narrow filter leaves fewer). Dynamic SQL:
-- the statement names the model and dimension count of its index.
CREATE OR REPLACE FUNCTION public.cairn_recall_nearest(p_org uuid, p_model text, p_vector text, p_k integer, p_agent text, p_scope text, p_proj text, p_all boolean, p_kinds text[], p_tags text[], p_author text, p_since timestamp with time zone, p_until timestamp with time zone)
 RETURNS uuid[]
 LANGUAGE plpgsql
 SET "hnsw.ef_search" TO '100'
 SET "hnsw.iterative_scan" TO 'relaxed_order'
AS $function$
DECLARE
  v_dims int := cardinality(string_to_array(btrim(p_vector, '[] '), ','));
  v_ids uuid[];
  v_at timestamptz := nullif(cairn_as_of(), 'infinity');
BEGIN
  IF to_regclass('entry_vectors') IS NULL OR p_model IS NULL OR v_dims IS NULL THEN
    RETURN NULL;
  END IF;
  EXECUTE format($q$
    SELECT array_agg(n.entry_id ORDER BY n.distance, n.entry_id DESC) FROM (
      SELECT v.entry_id, (v.embedding::vector(%1$s)) <=> $1::vector(%1$s) AS distance
      FROM entry_vectors v WHERE v.org_id = $2 AND v.model = %2$L
      ORDER BY (v.embedding::vector(%1$s)) <=> $1::vector(%1$s) LIMIT $3) n
    JOIN entries e ON e.org_id = $2 AND e.id = n.entry_id
    WHERE cairn_recall_visible(e, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)$q$, v_dims, p_model)
    INTO v_ids
    USING p_vector, p_org, p_k, p_agent, p_scope, p_proj, p_all, p_kinds, p_tags, p_author, p_since, p_until, v_at;
  RETURN v_ids;
EXCEPTION WHEN others THEN -- recall goes on lexically
  RAISE WARNING 'cairn: semantic recall skipped: %', SQLERRM;
  RETURN NULL;
END $function$;
