-- Stores the vector of the entry a write or plan statement returned (`r`), in the same statement.
CREATE OR REPLACE FUNCTION public.cairn_vector_put(r jsonb, p_model text, p_vector text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF to_regclass('entry_vectors') IS NOT NULL AND r->'entry'->>'id' IS NOT NULL THEN
    BEGIN
      INSERT INTO entry_vectors (entry_id, model, org_id, embedding)
        VALUES ((r->'entry'->>'id')::uuid, p_model, cairn_org(), p_vector::vector)
        ON CONFLICT (entry_id, model) DO UPDATE SET embedding = EXCLUDED.embedding;
    EXCEPTION WHEN others THEN -- the entry is stored whatever becomes of its vector
      RAISE WARNING 'cairn: vector of entry % not stored: %', r->'entry'->>'id', SQLERRM;
    END;
  END IF;
  RETURN r;
END $function$;
