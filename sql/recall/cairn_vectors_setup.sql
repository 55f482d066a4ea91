-- Semantic recall (off by default; docs/design.md, "Semantic recall"): the vector store, set up by
-- the service when embeddings are configured, on a database with pgvector 0.8 or later (iterative
-- index scans: the org's filter is applied inside the HNSW walk, not to its first 40 rows). One
-- HNSW index per model and dimension count, partial on the model, over a cast to fixed dimensions.
-- Returns NULL when ready, else why semantic recall is unavailable (recall stays lexical).
CREATE OR REPLACE FUNCTION public.cairn_vectors_setup(p_model text, p_dims integer)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_version text;
BEGIN
  SELECT extversion INTO v_version FROM pg_extension WHERE extname = 'vector';
  IF v_version IS NULL THEN
    IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
      RETURN 'the database has no pgvector extension';
    END IF;
    CREATE EXTENSION vector;
    SELECT extversion INTO v_version FROM pg_extension WHERE extname = 'vector';
  END IF;
  IF string_to_array(split_part(v_version, '-', 1), '.')::int[] < ARRAY[0, 8] THEN
    RETURN format('pgvector %s is older than 0.8', v_version);
  END IF;
  CREATE TABLE IF NOT EXISTS entry_vectors (
    entry_id uuid NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
    model text NOT NULL,
    org_id uuid NOT NULL,
    embedding vector NOT NULL,
    PRIMARY KEY (entry_id, model));
  ALTER TABLE entry_vectors ENABLE ROW LEVEL SECURITY;
  ALTER TABLE entry_vectors FORCE ROW LEVEL SECURITY;
  IF NOT EXISTS (SELECT 1 FROM pg_policies WHERE tablename = 'entry_vectors') THEN
    CREATE POLICY entry_vectors_isolation ON entry_vectors USING (org_id = cairn_org());
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON entry_vectors TO cairn_app;
  END IF;
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON entry_vectors USING hnsw ((embedding::vector(%s)) vector_cosine_ops) WHERE model = %L',
    'entry_vectors_' || left(md5(p_model || '/' || p_dims), 16), p_dims, p_model);
  RETURN NULL;
EXCEPTION WHEN insufficient_privilege THEN
  RETURN format('the role %s may not set up pgvector (%s); run cairn migrate as the database owner', current_user, SQLERRM);
END $function$;
